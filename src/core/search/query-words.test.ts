import { describe, expect, it } from "vitest";
import { QUERY_ALIASES } from "./query-aliases.js";
import { ALIAS_WEIGHT, NOISE_WEIGHT, queryWords } from "./query-words.js";
import { searchTerms } from "./search-terms.js";

describe("queryWords", () => {
  it("gives each distinct word its aliases at the alias weight", () => {
    expect(queryWords("powerpoint slides powerpoint")).toEqual([
      {
        spellings: [
          ["powerpoint", 1],
          ["pptx", ALIAS_WEIGHT],
          ["ppt", ALIAS_WEIGHT],
          ["slide", ALIAS_WEIGHT],
          ["deck", ALIAS_WEIGHT],
          ["keynot", ALIAS_WEIGHT],
          ["present", ALIAS_WEIGHT],
        ],
        weight: 1,
      },
      {
        spellings: [
          ["slide", 1],
          ["pptx", ALIAS_WEIGHT],
          ["ppt", ALIAS_WEIGHT],
          ["powerpoint", ALIAS_WEIGHT],
          ["deck", ALIAS_WEIGHT],
          ["keynot", ALIAS_WEIGHT],
          ["present", ALIAS_WEIGHT],
        ],
        weight: 1,
      },
    ]);
    expect(queryWords("k8s")).toEqual([
      {
        spellings: [
          ["k8s", 1],
          ["kubernet", ALIAS_WEIGHT],
          ["kubectl", ALIAS_WEIGHT],
        ],
        weight: 1,
      },
    ]);
  });

  it("adds a word of its own for a phrase alias, and leaves its words alone", () => {
    expect(queryWords("open a pull request")).toEqual([
      { spellings: [["open", 1]], weight: 1 },
      { spellings: [["pull", 1]], weight: 1 },
      { spellings: [["request", 1]], weight: 1 },
      { spellings: [["pr", ALIAS_WEIGHT]], weight: 1 },
    ]);
    expect(queryWords("request a pull")).toHaveLength(2);
  });

  it("weighs request verbs and fillers down without dropping them", () => {
    expect(queryWords("make and write a plan")).toEqual([
      { spellings: [["make", 1]], weight: NOISE_WEIGHT },
      { spellings: [["write", 1]], weight: NOISE_WEIGHT },
      { spellings: [["plan", 1]], weight: 1 },
    ]);
  });

  it("weighs them down only where they open the request: later they are part of the goal", () => {
    expect(queryWords("before we build anything, get a new plan").map((word) => word.weight)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    expect(queryWords("just make something new to plan the build").map((word) => word.weight)).toEqual([
      NOISE_WEIGHT,
      NOISE_WEIGHT,
      NOISE_WEIGHT,
      NOISE_WEIGHT,
      1,
      1,
    ]);
  });

  it("has an alias table whose every entry survives text analysis and belongs to one group", () => {
    const seen = new Map<string, number>();
    QUERY_ALIASES.forEach((group, index) => {
      for (const entry of group) {
        const key = searchTerms(entry).join(" ");
        expect(key, `"${entry}" is all stop words`).not.toBe("");
        expect(seen.get(key), `"${entry}" is in two groups`).toBeUndefined();
        seen.set(key, index);
      }
    });
  });
});
