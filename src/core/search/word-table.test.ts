import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchWords } from "./search-terms.js";
import { createWordTable } from "./word-table.js";

// Values that say which word they were resolved from, so a wrong slot or a wrong word shows.
const table = () => {
  const resolved: string[] = [];
  const words = createWordTable<{ word: string; stale: boolean }>(
    (word) => {
      resolved.push(word);
      return word === "the" ? undefined : { word, stale: false };
    },
    (value) => value.stale,
  );
  const valuesOf = (text: string) => {
    const into: Array<{ word: string; stale: boolean }> = [];
    const count = words.valuesOf(text, into);
    return into.slice(0, count).map((value) => value.word);
  };
  return { words, valuesOf, resolved };
};

describe("createWordTable", () => {
  it("keeps its words through reserve, and resolves each word once", () => {
    const { words, valuesOf, resolved } = table();
    const texts = Array.from({ length: 3000 }, (_, at) => `skill ${at} about Merge${at % 50}`);
    texts.slice(0, 1000).forEach(valuesOf);
    words.reserve(5000);
    words.reserve(10);
    for (const text of texts) expect(valuesOf(text)).toEqual(text.toLowerCase().split(" "));
    expect(words.size).toBe(3052);
    expect(resolved.length).toBe(3052);
  });
  it("finds the words searchWords cuts, in lower case and in order, skipping words resolved to undefined", () => {
    const { valuesOf } = table();
    expect(valuesOf("The PDF-processing, v1.2 of the pdf")).toEqual(["pdf", "processing", "v1", "2", "of", "pdf"]);
    expect(valuesOf("Résumé des données")).toEqual(["résumé", "des", "données"]);
    expect(valuesOf("tab\there\x0bvertical")).toEqual(["tab", "here", "vertical"]);
    expect(valuesOf("")).toEqual([]);
    expect(valuesOf(" -- ")).toEqual([]);
  });

  it("resolves each distinct word once, and again when its value is stale", () => {
    const { words, valuesOf, resolved } = table();
    valuesOf("Git git GIT merge");
    expect(resolved).toEqual(["git", "merge"]);
    const into: Array<{ word: string; stale: boolean }> = [];
    words.valuesOf("git", into);
    into[0]!.stale = true;
    valuesOf("git merge");
    expect(resolved).toEqual(["git", "merge", "git"]);
    expect(words.size).toBe(2);
    words.clear();
    expect(words.size).toBe(0);
    valuesOf("merge");
    expect(resolved).toEqual(["git", "merge", "git", "merge"]);
  });

  it("agrees with searchWords on any text, across growth of the table (property, seed 36)", () => {
    const { valuesOf } = table();
    const pieces = fc.constantFrom(
      "a",
      "Z",
      "q",
      "7",
      " ",
      "-",
      "\t",
      "\n",
      "é",
      "İ",
      "K",
      "\x0b",
      "日",
      "ab",
      "AB",
      "the",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(valuesOf(text)).toEqual(searchWords(text).filter((word) => word !== "" && word !== "the"));
      }),
      { numRuns: 2000, seed: 36 },
    );
  });
});
