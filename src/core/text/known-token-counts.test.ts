import fc from "fast-check";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it, vi } from "vitest";
import { loadTokenCounter } from "./count-tokens.js";
import {
  countKnownTokens,
  pieceCounter,
  rememberTokenCounts,
  tokenCountTable,
  withKnownTokenCounts,
} from "./known-token-counts.js";
import { everyTokenPiece, O200K_PIECE_PATTERN } from "./token-pieces.js";

// Parts that meet every branch of the pre-tokenizer: letters of each case class, marks, digits
// of several scripts, contractions, punctuation runs before line breaks and slashes, whitespace
// runs before words and at the end, line and paragraph separators, astral characters.
const PARTS = [
  "a",
  "Z",
  "é",
  "ß",
  "İ",
  "ǅ",
  "ʰ",
  "中",
  "한",
  "😀",
  "\u0301",
  "0",
  "7",
  "٣",
  "123456",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\n\n",
  " \n",
  "\u2028",
  "\u00a0",
  "'s",
  "'LL",
  "'d",
  "-",
  ",",
  ".",
  "…",
  "/",
  "`",
  "<|",
  "|>",
  "_",
  "(",
  ")",
  ":",
  " - ",
  "skill-00042",
  "Use when",
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PARTS), { maxLength: 40 }).map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 60 }),
);

describe("token counts known by piece", () => {
  it("cuts text with the encoding's own pattern", () => {
    expect(O200K_PIECE_PATTERN).toBe(o200k.pat_str);
  });

  it("counts any text made of counted pieces exactly as the encoding does", async () => {
    const encoding = await loadTokenCounter();
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), async (texts) => {
        const counts = new Map<string, number>();
        const recorded = pieceCounter(encoding, counts);
        for (const value of texts) expect(recorded(value)).toBe(encoding(value));
        rememberTokenCounts(tokenCountTable(counts));
        for (const value of texts) expect(countKnownTokens(value)).toBe(encoding(value));
        // Joined, the texts are made of the same kinds of pieces, though not always the same ones.
        const joined = texts.join("\n");
        const known = countKnownTokens(joined);
        if (known !== undefined) expect(known).toBe(encoding(joined));
      }),
      { numRuns: 300 },
    );
  });

  it("knows nothing of an unseen piece, and counts a special token's text by its pieces, as the encoding does", async () => {
    const encoding = await loadTokenCounter();
    const counts = new Map<string, number>();
    pieceCounter(encoding, counts)("Stop at <|endoftext|> here");
    rememberTokenCounts(tokenCountTable(counts));
    expect(countKnownTokens("Stop here")).toBe(encoding("Stop here"));
    expect(countKnownTokens("Stop at <|endoftext|> here")).toBe(encoding("Stop at <|endoftext|> here"));
    expect(countKnownTokens("Stop quizzically")).toBeUndefined();
  });

  it("cuts text into the same pieces when whoever it calls back cuts text too", () => {
    const text = "Review CSV exports, then don't stop…\n- next";
    const flat: string[] = [];
    everyTokenPiece(text, (piece) => (flat.push(piece), true));
    expect(flat.join("")).toBe(text);
    const nested: string[] = [];
    everyTokenPiece(text, (piece) => {
      everyTokenPiece(piece, () => true);
      everyTokenPiece(text, (inner) => inner !== " CSV");
      nested.push(piece);
      return true;
    });
    expect(nested).toEqual(flat);
  });

  it("the table groups pieces by count, each group sorted", () => {
    const counts = new Map([
      ["zeta", 1],
      [" alpha", 1],
      ["00042", 2],
    ]);
    expect(tokenCountTable(counts)).toEqual({ "1": [" alpha", "zeta"], "2": ["00042"] });
  });

  it("work with known counts runs only when counts are known, and gives way at the first unknown piece", async () => {
    vi.resetModules();
    const fresh = await import("./known-token-counts.js");
    let runs = 0;
    expect(fresh.withKnownTokenCounts(() => ++runs)).toBeUndefined();
    expect(runs).toBe(0);
    fresh.rememberTokenCounts({ "1": ["Hello", " world"] });
    expect(fresh.withKnownTokenCounts((count) => count("Hello world"))).toBe(2);
    expect(fresh.withKnownTokenCounts((count) => count("Hello") + count("Hello there"))).toBeUndefined();
    // Errors of the work itself are its own.
    expect(() =>
      fresh.withKnownTokenCounts(() => {
        throw new Error("planning failed");
      }),
    ).toThrow("planning failed");
    expect(withKnownTokenCounts).not.toBe(fresh.withKnownTokenCounts);
  });

  it("counts with the known counts first, with the encoding for an unknown piece, and with the encoding alone once it is loaded", async () => {
    vi.resetModules();
    const fresh = await import("./known-token-counts.js");
    const { encodingLoaded } = await import("./count-tokens.js");
    fresh.rememberTokenCounts({ "1": ["Hello", " world"] });
    let runs = 0;
    const count = (text: string) => (tokens: (text: string) => number) => (runs++, tokens(text));
    expect(await fresh.countWithKnownFirst(count("Hello world"))).toBe(2);
    expect([runs, encodingLoaded()]).toEqual([1, false]);
    runs = 0;
    expect(await fresh.countWithKnownFirst(count("Hello there"))).toBe(2);
    expect([runs, encodingLoaded()]).toEqual([2, true]);
    runs = 0;
    expect(await fresh.countWithKnownFirst(count("Hello there"))).toBe(2);
    expect(runs).toBe(1);
  });
});
