import type { Tiktoken } from "js-tiktoken/lite";

let counter: Promise<TokenCounter> | undefined;

/** Counts the tokens of a text; see {@link loadTokenCounter}. */
export type TokenCounter = (text: string) => number;

/**
 * A synchronous counter with OpenAI's `o200k_base` encoding. The ranks (a few MB) are loaded on
 * first use only.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  counter ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken }, ranks]) =>
      pieceCounter(new Tiktoken(ranks.default), ranks.default.pat_str, Object.keys(ranks.default.special_tokens)),
  );
  return counter;
}

/** Counts tokens with OpenAI's `o200k_base` encoding, as the catalog budget counts them. */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}

// Distinct pieces kept with their counts; past this many, the kept ones are dropped (odd input cannot grow it).
const MAX_PIECES = 50_000;

/**
 * `encoder.encode(text).length`, by pieces. The encoder cuts a text into pieces with `pattern` and
 * encodes each piece apart (its merges never cross pieces), so a text's count is the sum of its
 * pieces' counts: cut here, each distinct piece encoded once and its count kept. A call of the
 * encoder itself builds three regular expressions and two sets, which made counting a catalog's
 * lines one at a time most of the time rendering 100,000 skills took; the words of names and
 * descriptions repeat. A text holding a special token's text is left to the encoder (which refuses it).
 */
function pieceCounter(encoder: Tiktoken, pattern: string, specials: readonly string[]): TokenCounter {
  const pieces = new RegExp(pattern, "gu");
  const counts = new Map<string, number>();
  return (text) => {
    if (specials.some((special) => text.includes(special))) return encoder.encode(text).length;
    let total = 0;
    pieces.lastIndex = 0;
    for (let match = pieces.exec(text); match !== null; match = pieces.exec(text)) {
      const piece = match[0];
      let count = counts.get(piece);
      if (count === undefined) {
        count = encoder.encode(piece).length;
        if (counts.size >= MAX_PIECES) counts.clear();
        counts.set(piece, count);
      }
      total += count;
    }
    return total;
  };
}
