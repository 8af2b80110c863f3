import { describe, expect, it } from "vitest";
import { searchTerms } from "./search-terms.js";

describe("searchTerms", () => {
  it("lowers case and drops stop words", () => {
    expect(searchTerms("The Quick brown FOX")).toEqual(["quick", "brown", "fox"]);
    expect(searchTerms("how do I use this")).toEqual([]);
    expect(searchTerms("")).toEqual([]);
  });

  it("splits at anything but letters and digits", () => {
    expect(searchTerms("pdf-processing, v1.2")).toEqual(["pdf", "process", "v1", "2"]);
  });

  it("strips the commonest English endings, keeping short words and words with digits", () => {
    expect(searchTerms("queries running merged boxes classes status analysis files v2s")).toEqual(["query", "run", "merg", "box", "class", "status", "analysis", "file", "v2s"]);
    expect(searchTerms("filled fills")).toEqual(["fill", "fill"]);
  });

  it("splits non-ASCII text at Unicode letters and digits", () => {
    expect(searchTerms("Résumé des données")).toEqual(["résumé", "des", "donnée"]);
    expect(searchTerms("日本語 テキスト")).toEqual(["日本語", "テキスト"]);
  });

  it("keeps repeated words, for term frequencies", () => {
    expect(searchTerms("git git Git")).toEqual(["git", "git", "git"]);
  });
});
