// How many tokens one piece of text (see token-pieces.ts) is in a byte-pair encoding, counted
// with the encoding's ranks as tiktoken merges them. js-tiktoken's encoder decodes all 200,000
// ranks of o200k_base into a map of comma-joined bytes when it is made: 1.2 s on a 2-core
// machine, paid by every process at its first catalog. Here the ranks stay keyed by the base64
// the ranks file writes (a tenth of that time), and a piece's bytes are written in base64 to be
// looked up.

/** Each token's rank, by the token's bytes in base64. */
export type TokenRanks = ReadonlyMap<string, number>;

/**
 * The ranks of a tiktoken ranks file's `bpe_ranks` text: lines of `! <first rank> <token>...`,
 * each token its bytes in base64, ranked from the line's first rank up.
 * @internal
 */
export function tokenRanks(bpeRanks: string): TokenRanks {
  const ranks = new Map<string, number>();
  for (const line of bpeRanks.split("\n")) {
    if (line === "") continue;
    const fields = line.split(" ");
    const first = Number.parseInt(fields[1]!, 10);
    for (let at = 2; at < fields.length; at++) ranks.set(fields[at]!, first + at - 2);
  }
  return ranks;
}

const utf8 = new TextEncoder();

/**
 * The tokens of one piece: one when the piece is a token, else as many as are left once
 * neighbouring parts are merged, the pair whose merge has the lowest rank first, until no pair
 * merges (tiktoken's byte-pair merge).
 * @internal
 */
export function pieceTokenCount(piece: string, ranks: TokenRanks): number {
  const bytes = utf8.encode(piece);
  // Every single byte is a token.
  if (bytes.length <= 1) return bytes.length;
  if (ranks.has(base64(bytes, 0, bytes.length))) return 1;
  // Where each part starts; a part ends where the next starts.
  const starts = Array.from({ length: bytes.length }, (_, at) => at);
  while (starts.length > 1) {
    let merge = -1;
    let lowest = Infinity;
    for (let at = 0; at + 1 < starts.length; at++) {
      const rank = ranks.get(base64(bytes, starts[at]!, starts[at + 2] ?? bytes.length));
      if (rank !== undefined && rank < lowest) {
        lowest = rank;
        merge = at;
      }
    }
    if (merge === -1) break;
    starts.splice(merge + 1, 1);
  }
  return starts.length;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Standard base64 with padding, as the ranks file writes each token.
function base64(bytes: Uint8Array, from: number, to: number): string {
  let text = "";
  let at = from;
  for (; at + 2 < to; at += 3) {
    const bits = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
    text += ALPHABET[bits >> 18]! + ALPHABET[(bits >> 12) & 63]! + ALPHABET[(bits >> 6) & 63]! + ALPHABET[bits & 63]!;
  }
  if (at + 1 === to) {
    const bits = bytes[at]! << 16;
    text += `${ALPHABET[bits >> 18]!}${ALPHABET[(bits >> 12) & 63]!}==`;
  } else if (at + 2 === to) {
    const bits = (bytes[at]! << 16) | (bytes[at + 1]! << 8);
    text += `${ALPHABET[bits >> 18]!}${ALPHABET[(bits >> 12) & 63]!}${ALPHABET[(bits >> 6) & 63]!}=`;
  }
  return text;
}
