import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import ranks from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, loadTokenCounter } from "./count-tokens.js";

const encoder = new Tiktoken(ranks);
// A special token's text counts as ordinary text (no special token allowed, none refused).
const encoded = (text: string) => encoder.encode(text, [], []).length;

describe("loadTokenCounter", () => {
  it("counts as the o200k_base encoder does, the same text again included (property, seed 36)", async () => {
    const counted = await loadTokenCounter();
    // What the encoder's pattern cuts at: case, letters of other scripts, digit runs, contractions,
    // punctuation with line breaks and slashes after it, runs of spaces before words and at the end.
    const piece = fc.constantFrom(
      ..."a b Z Ab ABc pdf SKILL md".split(" "),
      ..."é Ü ß 日本 语 ٣ 😀 \ud83d \u0301 İ".split(" "),
      ..."1 12 123 1234 0".split(" "),
      "'s",
      "'LL",
      "'d",
      "'",
      "n't",
      ".",
      ",",
      ":",
      "-",
      "—",
      "/",
      "…",
      "`",
      "(",
      "[x]",
      "#",
      " ",
      "  ",
      "   ",
      "\t",
      "\n",
      "\n\n",
      "\r\n",
      " \n",
      "\u00a0",
      "\u2028",
      "<|endoftext|>",
      "<|",
      "|>",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        expect(counted(text)).toBe(encoded(text));
        expect(counted(text)).toBe(encoded(text));
      }),
      { numRuns: 3000, seed: 36 },
    );
    expect(await countTokens("- pdf-processing: Extract text and tables from PDF files.\n")).toBe(
      encoder.encode("- pdf-processing: Extract text and tables from PDF files.\n").length,
    );
  });

  it("counts a special token's text as ordinary text rather than refusing it, as a provider reads it in a message", async () => {
    const text = "Explains <|endoftext|> and <|endofprompt|>";
    expect(() => encoder.encode(text)).toThrow(/special token/);
    expect(await countTokens(text)).toBe(encoder.encode(text, [], []).length);
    expect(await countTokens(text)).toBe(
      (await countTokens("Explains <|")) + (await countTokens("endoftext|> and <|endofprompt|>")),
    );
  });
});
