import { pieceTokenCount, tokenRanks, type TokenRanks } from "./piece-token-count.js";
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
  counter ??= import("js-tiktoken/ranks/o200k_base").then((ranks) =>
    cachedPieceCounter(tokenRanks(ranks.default.bpe_ranks)),
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
 * The encoding's count of `text`, by pieces (token-pieces.ts): each distinct piece counted once
 * and its count kept, since the words of names and descriptions repeat. Merging never meets a
 * special token, so a special token's text counts as ordinary text.
 */
function cachedPieceCounter(ranks: TokenRanks): TokenCounter {
  const counts = new Map<string, number>();
  return (text) => {
    let total = 0;
    everyTokenPiece(text, (piece) => {
      let count = counts.get(piece);
      if (count === undefined) {
        count = pieceTokenCount(piece, ranks);
        if (counts.size >= MAX_PIECES) counts.clear();
        counts.set(piece, count);
      }
      total += count;
      return true;
    });
    return total;
  };
}
