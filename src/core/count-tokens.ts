import type { Tiktoken } from "js-tiktoken/lite";

let encoder: Promise<Tiktoken> | undefined;

/**
 * Counts tokens with OpenAI's `o200k_base` encoding. The ranks (a few MB) are loaded on
 * first use only.
 */
export async function countTokens(text: string): Promise<number> {
  encoder ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default),
  );
  return (await encoder).encode(text).length;
}
