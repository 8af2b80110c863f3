// The o200k_base encoding cuts a text into pieces with one regular expression before it merges
// bytes, and merges never cross pieces: a text's token count is the sum of its pieces' counts.
// So a text made of pieces whose counts are known is counted without the encoding's ranks.

/** The o200k_base pre-tokenizer, as OpenAI's tiktoken and js-tiktoken define it. */
export const O200K_PIECE_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** The encoding's special tokens: a text that holds one is refused by the counter, not cut into pieces. */
export const O200K_SPECIAL_TOKENS: readonly string[] = ["<|endoftext|>", "<|endofprompt|>"];

const pieces = new RegExp(O200K_PIECE_PATTERN, "gu");
// Whether `pieces` is in use: a `visit` that cuts text itself gets a copy (a global expression
// keeps its place in `lastIndex`).
let busy = false;

/** Calls `visit` with each piece of `text`, in order; stops and returns `false` as soon as `visit` does. */
export function everyTokenPiece(text: string, visit: (piece: string) => boolean): boolean {
  const pattern = busy ? new RegExp(pieces) : pieces;
  const outer = busy;
  busy = true;
  try {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) if (!visit(match[0])) return false;
    return true;
  } finally {
    pattern.lastIndex = 0;
    busy = outer;
  }
}

/** Whether `text` holds one of {@link O200K_SPECIAL_TOKENS}. */
export function hasSpecialToken(text: string): boolean {
  return text.includes("<|") && O200K_SPECIAL_TOKENS.some((token) => text.includes(token));
}
