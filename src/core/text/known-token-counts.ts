import { encodingLoaded, loadTokenCounter, type TokenCounter } from "./count-tokens.js";
import { everyTokenPiece } from "./token-pieces.js";

// Token counts of pieces (see token-pieces.ts) handed over by whoever counted them already (a
// fleet's catalog snapshot), so that a process counts text made of those pieces exactly as the
// encoding would without loading its ranks (about 0.25 s, more on a busy machine). A count is a
// function of the piece alone, so the counts are shared by every catalog.

/** Pieces by token count (`"1"`: the pieces that are one token), each list sorted. */
export type TokenCountTable = Record<string, string[]>;

const known = new Map<string, number>();
// Pieces of one library's vocabulary are a few hundred thousand at most; past this many (many
// libraries over a long life), the counts start again from the newest table.
const MAX_KNOWN_PIECES = 1_000_000;

/** Adds a table's counts to those this process knows. */
export function rememberTokenCounts(table: TokenCountTable): void {
  let size = 0;
  for (const list of Object.values(table)) size += list.length;
  if (known.size + size > MAX_KNOWN_PIECES) known.clear();
  for (const [count, list] of Object.entries(table)) {
    const tokens = Number(count);
    for (const piece of list) known.set(piece, tokens);
  }
}

/** The tokens of `text` from the known counts alone, or `undefined` when one of its pieces has none. */
export function countKnownTokens(text: string): number | undefined {
  let total = 0;
  const complete = everyTokenPiece(text, (piece) => {
    const tokens = known.get(piece);
    if (tokens === undefined) return false;
    total += tokens;
    return true;
  });
  return complete ? total : undefined;
}

const UNKNOWN = Symbol("unknown piece");

// Counts with the known counts, and stops the work at a text with an unknown piece.
const countKnownOrStop: TokenCounter = (text) => {
  const tokens = countKnownTokens(text);
  if (tokens === undefined) throw UNKNOWN;
  return tokens;
};

/**
 * Runs `work` with a counter of the known counts; `undefined` when it counted a text with an
 * unknown piece (the caller then counts with the encoding). `work` must be deterministic in its
 * counts, so that running it again with the encoding gives what this run would have.
 */
export function withKnownTokenCounts<T>(work: (count: TokenCounter) => T): T | undefined {
  if (known.size === 0) return undefined;
  try {
    return work(countKnownOrStop);
  } catch (error) {
    if (error === UNKNOWN) return undefined;
    throw error;
  }
}

/**
 * `work` run with the cheapest exact counter: the encoding's once this process has loaded it (its
 * pieces are cached), otherwise the known counts, and the encoding, loaded then, only when `work`
 * met a piece none has counted. `work` must be deterministic in its counts, as for
 * {@link withKnownTokenCounts}.
 */
export async function countWithKnownFirst<T>(work: (count: TokenCounter) => T | Promise<T>): Promise<T> {
  if (!encodingLoaded() && known.size > 0) {
    try {
      return await work(countKnownOrStop);
    } catch (error) {
      if (error !== UNKNOWN) throw error;
    }
  }
  return work(await loadTokenCounter());
}

/**
 * A counter that counts as the encoding's `count` does, piece by piece, and keeps each piece's
 * count in `counts` (pieces met again are not counted again): what {@link tokenCountTable} turns
 * into the table another process counts with.
 */
export function pieceCounter(count: TokenCounter, counts: Map<string, number>): TokenCounter {
  return (text) => {
    let total = 0;
    everyTokenPiece(text, (piece) => {
      let tokens = counts.get(piece);
      if (tokens === undefined) counts.set(piece, (tokens = count(piece)));
      total += tokens;
      return true;
    });
    return total;
  };
}

/** `counts` as a {@link TokenCountTable}: pieces grouped by count, each group sorted. */
export function tokenCountTable(counts: ReadonlyMap<string, number>): TokenCountTable {
  const table: TokenCountTable = {};
  for (const [piece, tokens] of counts) (table[tokens] ??= []).push(piece);
  for (const list of Object.values(table)) list.sort();
  return table;
}
