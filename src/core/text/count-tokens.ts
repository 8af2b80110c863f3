import type { Tiktoken } from "js-tiktoken/lite";

let encoder: Promise<Tiktoken> | undefined;

/** Counts the tokens of a text; see {@link loadTokenCounter}. */
export type TokenCounter = (text: string) => number;

/**
 * A synchronous counter with OpenAI's `o200k_base` encoding. The ranks (a few MB) are loaded on
 * first use only.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  encoder ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default),
  );
  const loaded = await encoder;
  return (text) => loaded.encode(text).length;
}

/** Whether this process loaded the encoding's ranks (so far): what a worker joining from a snapshot avoids. */
export function encodingLoaded(): boolean {
  return encoder !== undefined;
}

/** Counts tokens with OpenAI's `o200k_base` encoding, as the catalog budget counts them. */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}
