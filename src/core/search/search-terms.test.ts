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

  it("stems with Porter2, so word forms meet, keeping words with digits whole", () => {
    expect(searchTerms("queries running merged merge boxes classes status analysis files v2s")).toEqual([
      "queri",
      "run",
      "merg",
      "merg",
      "box",
      "class",
      "status",
      "analysi",
      "file",
      "v2s",
    ]);
    expect(searchTerms("filled fills")).toEqual(["fill", "fill"]);
    expect(searchTerms("accessible accessibility")).toEqual(["access", "access"]);
    expect(searchTerms("deploying deployment deploys")).toEqual(["deploy", "deploy", "deploy"]);
    // A cruder stemmer makes these one word; Porter2 keeps them apart.
    expect(searchTerms("general generate")).toEqual(["general", "generat"]);
  });

  it("drops the plural s of an acronym, which Porter2 keeps", () => {
    expect(searchTerms("pdfs csvs urls PDF")).toEqual(["pdf", "csv", "url", "pdf"]);
    expect(searchTerms("k8s")).toEqual(["k8s"]);
  });

  it("splits non-ASCII text at Unicode letters and digits", () => {
    expect(searchTerms("Résumé des données")).toEqual(["résumé", "des", "donné"]);
    expect(searchTerms("日本語 テキスト")).toEqual(["日本語", "テキスト"]);
  });

  it("keeps repeated words, for term frequencies", () => {
    expect(searchTerms("git git Git")).toEqual(["git", "git", "git"]);
  });
});
