// The o200k_base encoding cuts a text into pieces with one regular expression before it merges
// bytes, and merges never cross pieces: a text's token count is the sum of its pieces' counts.
// So a text made of pieces whose counts are known is counted without the encoding's ranks.

/** The o200k_base pre-tokenizer, as OpenAI's tiktoken and js-tiktoken define it. */
export const O200K_PIECE_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

const pieces = new RegExp(O200K_PIECE_PATTERN, "gu");

/** Calls `visit` with each piece of `text`, in order; stops and returns `false` as soon as `visit` does. */
export function everyTokenPiece(text: string, visit: (piece: string) => boolean): boolean {
  // The position is kept here, not in the shared expression: `visit` may cut another text (a
  // counter that counts a piece by its own pieces) before this loop goes on.
  let at = 0;
  for (;;) {
    pieces.lastIndex = at;
    const match = pieces.exec(text);
    if (match === null) return true;
    at = pieces.lastIndex;
    if (!visit(match[0])) return false;
  }
}
