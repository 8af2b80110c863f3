import type { Tiktoken } from "js-tiktoken/lite";
import { everyTokenPiece } from "./token-pieces.js";

let counter: Promise<TokenCounter> | undefined;

/**
 * Counts the tokens of a text; see {@link loadTokenCounter}. A special token's text (say
 * `<|endoftext|>` in a skill's description) counts as ordinary text, as a provider's API reads it
 * in a message.
 */
export type TokenCounter = (text: string) => number;

/**
 * A synchronous counter with OpenAI's `o200k_base` encoding. The ranks (a few MB) are loaded on
 * first use only.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  counter ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken }, ranks]) => cachedPieceCounter(new Tiktoken(ranks.default)),
  );
  return counter;
}

/** Whether this process loaded the encoding's ranks (so far): what a worker joining from a snapshot avoids. */
export function encodingLoaded(): boolean {
  return counter !== undefined;
}

/** Counts tokens with OpenAI's `o200k_base` encoding, as the catalog budget counts them. */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}

// Distinct pieces kept with their counts; past this many, the kept ones are dropped (odd input cannot grow it).
const MAX_PIECES = 50_000;

/**
 * `encoder.encode(text).length`, by pieces (token-pieces.ts): each distinct piece encoded once and
 * its count kept. A call of the encoder itself builds three regular expressions and two sets,
 * which made counting a catalog's lines one at a time most of the time rendering 100,000 skills
 * took; the words of names and descriptions repeat. No piece is a special token's whole text (its
 * `<|` and `|>` are pieces of their own), so the encoder, which refuses those by default, counts
 * such text as ordinary text.
 */
function cachedPieceCounter(encoder: Tiktoken): TokenCounter {
  const counts = new Map<string, number>();
  return (text) => {
    let total = 0;
    everyTokenPiece(text, (piece) => {
      let count = counts.get(piece);
      if (count === undefined) {
        count = encoder.encode(piece).length;
        if (counts.size >= MAX_PIECES) counts.clear();
        counts.set(piece, count);
      }
      total += count;
      return true;
    });
    return total;
  };
}
