import { Buffer } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import ranks from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { pieceTokenCount, tokenRanks } from "./piece-token-count.js";
import { everyTokenPiece } from "./token-pieces.js";

const encoder = new Tiktoken(ranks);
const table = tokenRanks(ranks.bpe_ranks);

// The pieces of `text` with their counts, by this counter and by js-tiktoken's encoder.
function bothCounts(text: string): { piece: string; counted: number; encoded: number }[] {
  const counts: { piece: string; counted: number; encoded: number }[] = [];
  everyTokenPiece(text, (piece) => {
    counts.push({ piece, counted: pieceTokenCount(piece, table), encoded: encoder.encode(piece, [], []).length });
    return true;
  });
  return counts;
}

describe("tokenRanks", () => {
  it("ranks every token of o200k_base as js-tiktoken does, by the base64 of its bytes", () => {
    expect(table.size).toBe(199_998);
    const bytesOf = new TextDecoder();
    for (const [token, rank] of table)
      expect(encoder.decode([rank])).toBe(bytesOf.decode(Buffer.from(token, "base64")));
  });

  it("reads ranks that start anew on each line from that line's first rank", () => {
    const small = tokenRanks("! 0 YQ== Yg==\n! 7 YWI= YmM=\n");
    expect([...small]).toEqual([
      ["YQ==", 0],
      ["Yg==", 1],
      ["YWI=", 7],
      ["YmM=", 8],
    ]);
  });
});

describe("pieceTokenCount", () => {
  it("counts a token as one, a byte as one and merges the lowest-ranked pair first", () => {
    // a b c d, then "bc", "ab", "bcd": merging "bc" first leads to "bcd" (2 tokens); merging the
    // leftmost pair "ab" first would leave "ab" "c" "d" (3).
    const small = tokenRanks("! 0 YQ== Yg== Yw== ZA== YmM= YWI= YmNk");
    expect(pieceTokenCount("abcd", small)).toBe(2);
    expect(pieceTokenCount("bcd", small)).toBe(1);
    expect(pieceTokenCount("d", small)).toBe(1);
    expect(pieceTokenCount("dcba", small)).toBe(4);
    expect(pieceTokenCount("", small)).toBe(0);
  });

  it("counts each piece as the o200k_base encoder does (property, seed 2611)", () => {
    // Pieces the ranks do not hold whole: rare words, long numbers cut by three, other scripts,
    // emoji and lone surrogates, runs of punctuation and spaces.
    const char = fc.constantFrom(
      ..."abcdefghijklmnopqrstuvwxyzAZQXJ0123456789",
      ..."éÜßçñøåł日本语٣ж한😀🧪\u0301\ud83dİ",
      ..." .,:;-—/…`'\"()[]{}#*_=+<>|~!?@$%^&\\\t\n\r\u00a0",
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        for (const { counted, encoded } of bothCounts(chars.join(""))) expect(counted).toBe(encoded);
      }),
      { numRuns: 4000, seed: 2611 },
    );
  });

  it("counts every piece of this repository's docs as the o200k_base encoder does", () => {
    const folder = new URL("../../../docs/", import.meta.url);
    const pages = readdirSync(folder).filter((name) => name.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(10);
    let pieces = 0;
    for (const page of pages) {
      const text = readFileSync(new URL(page, folder), "utf8");
      const counts = bothCounts(text);
      expect(counts.filter(({ counted, encoded }) => counted !== encoded)).toEqual([]);
      pieces += counts.length;
    }
    expect(pieces).toBeGreaterThan(50_000);
  });
});
