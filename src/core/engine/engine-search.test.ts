import { describe, expect, it } from "vitest";
import type { SkillsLogEntry } from "../skill-events.js";
import type { SkillEngineOptions, SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillRanker } from "../search/skill-search.js";
import { rendering } from "./catalog-cache.js";
import { createEngineContext } from "./engine-context.js";
import { offersSearch, searchReply, searchResultText, searchSkills } from "./engine-search.js";

const meta = (name: string, extra: Partial<SkillMetadata> = {}): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
  ...extra,
});

function setup(options: SkillEngineOptions, skills: SkillMetadata[]) {
  const entries: SkillsLogEntry[] = [];
  const context = createEngineContext({ ...options, logger: (entry) => entries.push(entry) });
  const request: SkillRequest = { state: { skills, loaded: [], resources: {} }, sources: async () => [] };
  return { context, request, entries, catalog: rendering(skills) };
}

// A ranker that returns fixed names, and records the limits it was asked for.
function fixed(names: string[], limits: number[] = []): SkillRanker {
  return (_query, _skills, limit) => {
    limits.push(limit);
    return names.slice(0, limit).map((name, index) => ({ name, score: names.length - index }));
  };
}

describe("searchResultText", () => {
  it("lists each skill as a catalog line would, with its argument hint and its description on one line", () => {
    const text = searchResultText("pdf", [
      { name: "pdf", description: "Fill\n  PDF forms. ", argumentHint: "[file]", path: "/s/pdf/SKILL.md", score: 2 },
      { name: "docx", description: "Edit Word files.", path: "/s/docx/SKILL.md", score: 1 },
    ]);
    expect(text).toBe(
      "Skills matching 'pdf', best first:\n- pdf (arguments: [file]): Fill PDF forms.\n- docx: Edit Word files.\nLoad one with load_skill to use it.",
    );
  });

  it("says what to do when nothing matches", () => {
    expect(searchResultText("xyz", [])).toBe("No skills match 'xyz'. Try other words, or go on without a skill.");
  });
});

describe("searchSkills", () => {
  it("one ranker: its order, cut at the limit; names it gives that the model may not load are dropped", async () => {
    const limits: number[] = [];
    const { context, catalog } = setup({ search: { rankers: [fixed(["b", "user-only", "gone", "a"], limits)] } }, [
      meta("a"),
      meta("b"),
      meta("user-only", { disableModelInvocation: true }),
    ]);
    const hits = await searchSkills(context, catalog, "q", 4);
    expect(hits.map(({ name, score }) => ({ name, score }))).toEqual([
      { name: "b", score: 4 },
      { name: "a", score: 1 },
    ]);
    expect(limits).toEqual([4]);
  });

  it("several rankers: each asked for at least 50 candidates, fused by reciprocal rank", async () => {
    const first: number[] = [];
    const second: number[] = [];
    const { context, catalog } = setup({ search: { rankers: [fixed(["x", "y"], first), fixed(["y", "z"], second)] } }, [
      meta("x"),
      meta("y"),
      meta("z"),
    ]);
    const hits = await searchSkills(context, catalog, "q", 2);
    expect(hits.map(({ name, score }) => ({ name, score }))).toEqual([
      { name: "y", score: 1 / 62 + 1 / 61 },
      { name: "x", score: 1 / 61 },
    ]);
    expect([first, second]).toEqual([[50], [50]]);
  });
});

describe("searchReply", () => {
  it("refuses an empty query", async () => {
    const { context, request, entries } = setup({}, [meta("a")]);
    expect(await searchReply(context, request, { query: "  " })).toEqual({
      ok: false,
      text: "Error: The search query is empty. Describe the task in a few words.",
      results: [],
      weakMatches: [],
    });
    expect(entries).toEqual([]);
  });

  it("clamps the limit to 1..25, returns the results as data and text, and logs the search", async () => {
    const limits: number[] = [];
    const { context, request, entries } = setup({ search: { rankers: [fixed(["a", "b"], limits)] } }, [
      meta("a", { argumentHint: "[x]" }),
      meta("b"),
    ]);
    const reply = await searchReply(context, request, { query: " find a ", limit: 0 });
    expect(reply).toEqual({
      ok: true,
      text: "Skills matching 'find a', best first:\n- a (arguments: [x]): Use a.\nLoad one with load_skill to use it.",
      results: [{ name: "a", description: "Use a.", argumentHint: "[x]", path: "/s/a/SKILL.md", score: 2 }],
      weakMatches: [],
    });
    await searchReply(context, request, { query: "a", limit: 100 });
    await searchReply(context, request, { query: "a" });
    expect(limits).toEqual([1, 25, 5]);
    expect(entries[0]).toEqual({
      level: "info",
      event: "skills_searched",
      message: "search_skills('find a') found 1 skills",
      query: "find a",
      results: 1,
      weakMatches: 0,
    });
  });
});

describe("offersSearch", () => {
  it("always, never, or (auto) only while the catalog is over its budget", async () => {
    const skills = [meta("a"), meta("b")];
    const offered = async (options: SkillEngineOptions) => {
      const { context, request, catalog } = setup(options, skills);
      return offersSearch(context, request, catalog);
    };
    expect(await offered({ search: { offer: "always" } })).toBe(true);
    expect(await offered({ search: { offer: true }, catalogBudget: false })).toBe(true);
    expect(await offered({ search: { offer: "never" }, catalogBudget: 1 })).toBe(false);
    expect(await offered({ catalogBudget: 1 })).toBe(true);
    expect(await offered({})).toBe(false);
  });
});
