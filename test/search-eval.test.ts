import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedSkillMetadata } from "../bench/generate-library.mjs";
import {
  evaluateFloor,
  evaluateRanker,
  GOAL_PHRASED_PATH,
  HELD_OUT_PATH,
  loadRequests,
  NO_MATCH_PATH,
  type SearchEvalRequest,
} from "../bench/search-eval/metrics.mjs";
import { createCatalog, createLexicalRanker, type SkillMetadata } from "../src/index.js";
import { createLocalSource } from "../src/node.js";
import { corpusRepositories, SHARED_CORPUS, useSharedCorpus } from "./helpers/test-environment.js";

const withCorpus = useSharedCorpus();

describe.skipIf(!withCorpus)("the skill-search evaluation set (bench/search-eval/requests.json)", () => {
  async function corpusSnapshot() {
    const catalog = createCatalog(
      corpusRepositories().map((path) => createLocalSource({ path, recursive: true, watch: false })),
    );
    return catalog.refresh();
  }

  it("has at least 80 requests with unique ids, each naming only skills of the corpus", async () => {
    const requests = loadRequests(await corpusSnapshot());
    expect(requests.length).toBeGreaterThanOrEqual(80);
    expect(new Set(requests.map((entry) => entry.id)).size).toBe(requests.length);
    expect(requests.every((entry) => entry.relevant.length > 0 && entry.request.trim() !== "")).toBe(true);
  });

  it("rarely gives the answer away: at most 10% of requests contain a relevant skill's full name", async () => {
    const requests = loadRequests(await corpusSnapshot());
    const verbatim = requests.filter((entry) =>
      entry.relevant.some((name) => entry.request.toLowerCase().includes(name.toLowerCase())),
    );
    expect(verbatim.length).toBeLessThanOrEqual(requests.length * 0.1);
  });

  it("asks for skills of all five collections, each in at least 3% of the requests", async () => {
    const snapshot = await corpusSnapshot();
    const collectionOf = new Map(
      snapshot.skills.map((skill) => [skill.name, relative(SHARED_CORPUS, skill.path).split(sep)[0]]),
    );
    const requests = loadRequests(snapshot);
    const perCollection = new Map<string, number>();
    for (const entry of requests) {
      const collection = collectionOf.get(entry.relevant[0] ?? "") ?? "";
      perCollection.set(collection, (perCollection.get(collection) ?? 0) + 1);
    }
    expect([...perCollection.keys()].sort()).toEqual(corpusRepositories().map((path) => relative(SHARED_CORPUS, path)));
    for (const count of perCollection.values()) expect(count).toBeGreaterThanOrEqual(requests.length * 0.03);
  });

  it("has a held-out set of at least 80 requests with a right skill and 20 without, and 20 more requests no skill fits", async () => {
    const snapshot = await corpusSnapshot();
    const heldOut = loadRequests(snapshot, HELD_OUT_PATH);
    expect(heldOut.filter((entry) => entry.relevant.length > 0).length).toBeGreaterThanOrEqual(80);
    expect(heldOut.filter((entry) => entry.relevant.length === 0)).toHaveLength(20);
    const noMatch = loadRequests(snapshot, NO_MATCH_PATH);
    expect(noMatch).toHaveLength(20);
    expect(noMatch.every((entry) => entry.relevant.length === 0)).toBe(true);
    const ids = [...loadRequests(snapshot), ...heldOut, ...noMatch].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has a goal-phrased set of at least 40 requests, ids unique across all sets, rarely naming a relevant skill", async () => {
    const snapshot = await corpusSnapshot();
    const goals = loadRequests(snapshot, GOAL_PHRASED_PATH);
    expect(goals.length).toBeGreaterThanOrEqual(40);
    expect(goals.every((entry) => entry.relevant.length > 0)).toBe(true);
    const verbatim = goals.filter((entry) =>
      entry.relevant.some((name) => entry.request.toLowerCase().includes(name.toLowerCase())),
    );
    expect(verbatim.length).toBeLessThanOrEqual(goals.length * 0.1);
    const ids = [snapshot, HELD_OUT_PATH, NO_MATCH_PATH, GOAL_PHRASED_PATH].flatMap((set) =>
      (typeof set === "string" ? loadRequests(snapshot, set) : loadRequests(set)).map((entry) => entry.id),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  // Issue 35: requests phrased as goals keep what the stemming, alias and verb-weight change gave
  // them, and held-out requests naming a product keep their gain, in the ~2,000-skill library.
  it("keeps recall on goal-phrased requests and on held-out requests that name a product", async () => {
    const corpus = (await corpusSnapshot()).skills;
    const names = corpus.map((skill) => skill.name);
    const library: SkillMetadata[] = [
      ...corpus,
      ...generatedSkillMetadata(1_825).map((skill) => ({
        ...skill,
        path: `/generated/${skill.name}/SKILL.md`,
        metadata: {},
        allowedTools: [],
        source: "generated",
      })),
    ];
    const rank = createLexicalRanker();
    const ranker = async (query: string) => (await rank(query, library, 10)).map((hit) => hit.name);
    const goals = await evaluateRanker(ranker, loadRequests(names, GOAL_PHRASED_PATH));
    expect(goals.recallAt5).toBeGreaterThanOrEqual(0.765);
    expect(goals.mrr).toBeGreaterThanOrEqual(0.545);
    const naming = loadRequests(names, HELD_OUT_PATH).filter((entry) => entry.names !== undefined);
    expect(naming.length).toBeGreaterThanOrEqual(40);
    const products = await evaluateRanker(ranker, naming);
    expect(products.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(products.mrr).toBeGreaterThanOrEqual(0.87);
    const tuned = await evaluateRanker(ranker, loadRequests(names));
    expect(tuned.recallAt5).toBeGreaterThanOrEqual(0.94);
  });

  // The targets of issue 26 on the set the ranker was not tuned on, in the ~2,000-skill library
  // (the corpus and 1,825 generated skills), and the relevance floor on requests no skill fits.
  it("the default ranker reaches recall@5 0.92 and MRR 0.80 on the held-out set, and stays silent on most requests no skill fits", async () => {
    const corpus = (await corpusSnapshot()).skills;
    const library: SkillMetadata[] = [
      ...corpus,
      ...generatedSkillMetadata(1_825).map((skill) => ({
        ...skill,
        path: `/generated/${skill.name}/SKILL.md`,
        metadata: {},
        allowedTools: [],
        source: "generated",
      })),
    ];
    const rank = createLexicalRanker();
    const heldOut = loadRequests(
      corpus.map((skill) => skill.name),
      HELD_OUT_PATH,
    );
    const report = await evaluateRanker(
      async (query) => (await rank(query, library, 10)).map((hit) => hit.name),
      heldOut,
    );
    expect(report.recallAt5).toBeGreaterThanOrEqual(0.92);
    expect(report.mrr).toBeGreaterThanOrEqual(0.8);
    const split = async (query: string) => {
      const hits = await rank(query, corpus, 5);
      return {
        results: hits.filter((hit) => !hit.weak).map((hit) => hit.name),
        weakMatches: hits.filter((hit) => hit.weak).map((hit) => hit.name),
      };
    };
    expect(
      (
        await evaluateFloor(
          split,
          loadRequests(
            corpus.map((skill) => skill.name),
            NO_MATCH_PATH,
          ),
        )
      ).silent,
    ).toBeGreaterThanOrEqual(0.9);
    expect((await evaluateFloor(split, heldOut)).silent).toBeGreaterThanOrEqual(0.8);
  });

  it("answers the requests issue 26 names on the corpus: word forms, product names, a Dockerfile no skill covers", async () => {
    const corpus = (await corpusSnapshot()).skills;
    const rank = createLexicalRanker();
    const first = async (query: string) => (await rank(query, corpus, 5))[0];
    expect(await first("make my website accessible")).toMatchObject({ name: "web-design-guidelines", weak: false });
    expect(await first("make a PowerPoint deck")).toMatchObject({ name: "scientific-slides", weak: false });
    expect((await rank("write a Dockerfile for my node app", corpus, 5)).filter((hit) => !hit.weak)).toEqual([]);
  });

  it("refuses a set naming a skill the catalog does not have, naming the entry and the skill", () => {
    const folder = mkdtempSync(join(tmpdir(), "search-eval-"));
    try {
      const file = join(folder, "requests.json");
      writeFileSync(
        file,
        JSON.stringify([{ id: "plots", request: "draw a violin plot", relevant: ["seaborn", "no-such-skill"] }]),
      );
      expect(() => loadRequests(["seaborn"], file)).toThrow(
        `${file}: entry 0 "plots": relevant skill(s) not in the catalog: no-such-skill.`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("evaluateRanker", () => {
  const others = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  // First relevant ranks: 1, 3, 6 and 11 (beyond the default depth of 10, so a miss).
  const requests: SearchEvalRequest[] = [
    { id: "first", request: "q1", relevant: ["a"] },
    { id: "third", request: "q2", relevant: ["c", "d"] },
    { id: "sixth", request: "q3", relevant: ["e"] },
    { id: "eleventh", request: "q4", relevant: ["f"] },
  ];
  const rankings: Record<string, string[]> = {
    q1: ["a", "b"],
    q2: ["x", "y", "d", "c"],
    q3: [...others("e", 5), "e"],
    q4: [...others("f", 10), "f"],
  };

  it("scores recall@1, recall@5 and MRR by the first relevant skill within the top 10", async () => {
    const report = await evaluateRanker(async (query) => rankings[query] ?? [], requests);
    expect(report.recallAt1).toBe(0.25);
    expect(report.recallAt5).toBe(0.5);
    // (1 + 1/3 + 1/6 + 0) / 4
    expect(report.mrr).toBeCloseTo(0.375, 12);
    expect(report.perRequest.map((result) => result.firstRelevantRank)).toEqual([1, 3, 6, null]);
    expect(report.perRequest[3]?.ranked).toEqual(others("f", 10));
  });

  it("reads only the first k results, from a synchronous ranker too", async () => {
    const report = await evaluateRanker((query) => rankings[query] ?? [], requests, { k: 5 });
    expect(report.perRequest.map((result) => result.firstRelevantRank)).toEqual([1, 3, null, null]);
    expect(report.recallAt5).toBe(0.5);
    expect(report.mrr).toBeCloseTo((1 + 1 / 3) / 4, 12);
  });

  it("leaves requests no skill fits out of recall and MRR", async () => {
    const report = await evaluateRanker(
      async (query) => rankings[query] ?? [],
      [...requests, { id: "none", request: "q5", relevant: [] }],
    );
    expect(report.perRequest).toHaveLength(4);
    expect(report.recallAt1).toBe(0.25);
  });

  it("refuses a depth under 5 and an empty set", async () => {
    await expect(evaluateRanker(() => [], requests, { k: 3 })).rejects.toThrow("k must be an integer of at least 5");
    await expect(evaluateRanker(() => [], [])).rejects.toThrow("No requests to evaluate.");
  });
});

describe("evaluateFloor", () => {
  it("counts right first answers, wrong ones above the floor, and silence on requests no skill fits", async () => {
    const requests: SearchEvalRequest[] = [
      { id: "right", request: "q1", relevant: ["a"] },
      { id: "wrong", request: "q2", relevant: ["a"] },
      { id: "right-but-weak", request: "q3", relevant: ["a"] },
      { id: "silent", request: "q4", relevant: [] },
      { id: "answered-anyway", request: "q5", relevant: [] },
    ];
    const replies: Record<string, { results: string[]; weakMatches: string[] }> = {
      q1: { results: ["a", "b"], weakMatches: [] },
      q2: { results: ["b"], weakMatches: ["a"] },
      q3: { results: [], weakMatches: ["a"] },
      q4: { results: [], weakMatches: ["b"] },
      q5: { results: ["b"], weakMatches: [] },
    };
    const report = await evaluateFloor((query) => replies[query]!, requests);
    expect(report.answered).toBeCloseTo(1 / 3, 12);
    expect(report.falseAnswers).toBeCloseTo(1 / 3, 12);
    expect(report.silent).toBe(0.5);
    expect(report.perRequest.map((entry) => entry.id)).toEqual([
      "right",
      "wrong",
      "right-but-weak",
      "silent",
      "answered-anyway",
    ]);
  });
});
