import { describe, expect, it } from "vitest";
import { expandQueryWord, PREFIX_WEIGHT, TYPO_WEIGHT, withinOneEdit } from "./query-term-expansion.js";

const indexOf = (terms: string[]) => {
  const indexed = new Map(terms.map((term) => [term, true]));
  let built = 0;
  const vocabulary = () => {
    built++;
    return [...terms].sort();
  };
  return { expand: (word: string) => expandQueryWord(word, indexed, vocabulary), built: () => built };
};

describe("withinOneEdit", () => {
  it("accepts equal words and one substitution, insertion, deletion or swap of neighbours", () => {
    expect(withinOneEdit("merge", "merge")).toBe(true);
    expect(withinOneEdit("merge", "marge")).toBe(true);
    expect(withinOneEdit("merge", "merges")).toBe(true);
    expect(withinOneEdit("merges", "merge")).toBe(true);
    expect(withinOneEdit("merge", "mrege")).toBe(true);
    expect(withinOneEdit("merge", "mergf")).toBe(true);
  });

  it("refuses two edits", () => {
    expect(withinOneEdit("merge", "mrage")).toBe(false);
    expect(withinOneEdit("merge", "emrgf")).toBe(false);
    expect(withinOneEdit("abc", "abcde")).toBe(false);
  });
});

describe("expandQueryWord", () => {
  const terms = ["merge", "merger", "mergers", "pdf", "format", "formula"];

  it("reaches an indexed word itself and, from 4 characters on, the terms it starts", () => {
    expect(indexOf(terms).expand("merge")).toEqual([
      ["merge", 1],
      ["merger", PREFIX_WEIGHT],
      ["mergers", PREFIX_WEIGHT],
    ]);
    expect(indexOf(terms).expand("form")).toEqual([
      ["format", PREFIX_WEIGHT],
      ["formula", PREFIX_WEIGHT],
    ]);
  });

  it("reaches the terms one edit away only for a word of 5 or more characters that no skill uses", () => {
    expect(indexOf(terms).expand("formt")).toEqual([["format", TYPO_WEIGHT]]);
    expect(indexOf(terms).expand("pdx")).toEqual([]);
    expect(indexOf([...terms, "mergf"]).expand("merge")).toEqual([
      ["merge", 1],
      ["merger", PREFIX_WEIGHT],
      ["mergers", PREFIX_WEIGHT],
    ]);
  });

  it("asks for the sorted vocabulary only when it looks up prefixes", () => {
    const index = indexOf(terms);
    expect(index.expand("pdf")).toEqual([["pdf", 1]]);
    expect(index.built()).toBe(0);
    index.expand("pdfs");
    expect(index.built()).toBe(1);
  });

  it("takes at most 64 prefix terms, in sorted order", () => {
    const many = Array.from({ length: 100 }, (_, index) => `term${String(index).padStart(3, "0")}`);
    const reached = indexOf(many).expand("term");
    expect(reached).toHaveLength(64);
    expect(reached[0]).toEqual(["term000", PREFIX_WEIGHT]);
    expect(reached[63]).toEqual(["term063", PREFIX_WEIGHT]);
  });
});
