import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  expandQueryWord,
  PREFIX_WEIGHT,
  TYPO_WEIGHT,
  type Vocabulary,
  vocabularyOf,
  withinOneEdit,
} from "./query-term-expansion.js";

const indexOf = (terms: string[]) => {
  const indexed = new Map(terms.map((term, ordinal) => [term, { ordinal }]));
  let built = 0;
  const vocabulary = () => {
    built++;
    return vocabularyOf([...terms]);
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

  it("finds the same terms one edit away, in the index's order, whether it compares every term or looks up the word's variants (property, seed 36)", () => {
    // Few characters, so that words one edit apart abound; a surrogate pair and a lone half, since
    // edits work on UTF-16 code units.
    const letter = fc.constantFrom("a", "b", "c", "é", "\ud83d\ude00", "\ud83d", "1");
    const term = fc.array(letter, { minLength: 3, maxLength: 6 }).map((letters) => letters.join(""));
    const edit = (word: string, at: number, letter: string, kind: number) => {
      const place = at % (word.length + 1);
      if (kind === 0) return word.slice(0, place) + word.slice(place + 1);
      if (kind === 1) return word.slice(0, place) + letter + word.slice(place);
      if (kind === 2) return word.slice(0, place) + letter + word.slice(place + 1);
      return (
        word.slice(0, place) + word.slice(place + 1, place + 2) + word.slice(place, place + 1) + word.slice(place + 2)
      );
    };
    // Terms in the order the index made them, its ordinals in that order.
    const indexOf = (terms: string[]) => {
      const indexed = new Map(terms.map((term, ordinal) => [term, { ordinal }]));
      let vocabulary: Vocabulary | undefined;
      return { indexed, vocabulary: () => (vocabulary ??= vocabularyOf([...terms])) };
    };
    // With 6,000 more terms of digits, variants of a word of up to 13 code units over 16 characters
    // are fewer than an eighth of the terms: the large index looks them up, the small one compares.
    const numbers = Array.from({ length: 6000 }, (_, at) => String(at));
    fc.assert(
      fc.property(
        fc.uniqueArray(term, { minLength: 1, maxLength: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), letter, fc.nat(3)), { minLength: 1, maxLength: 8 }),
        (terms, edits) => {
          const small = indexOf(terms);
          const large = indexOf([...new Set(terms.flatMap((term, at) => [term, numbers[at]!]).concat(numbers))]);
          for (const [pick, at, letter, kind] of edits) {
            const word = edit(terms[pick % terms.length]!, at, letter, kind);
            for (const { indexed, vocabulary } of [small, large]) {
              const scanned = [...indexed.keys()].filter(
                (term) => !indexed.has(word) && Math.abs(term.length - word.length) <= 1 && withinOneEdit(word, term),
              );
              const typos = expandQueryWord(word, indexed, vocabulary).filter(([, weight]) => weight === TYPO_WEIGHT);
              expect(typos.map(([term]) => term)).toEqual(word.length < 5 ? [] : scanned);
            }
          }
        },
      ),
      { numRuns: 200, seed: 36 },
    );
  });
});
