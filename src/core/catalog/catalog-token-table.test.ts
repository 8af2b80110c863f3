import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { loadTokenCounter } from "../text/count-tokens.js";
import { rememberTokenCounts, type TokenCountTable } from "../text/known-token-counts.js";
import { sha256Hex } from "../text/sha256-hex.js";
import { catalogTokenTable } from "./catalog-token-table.js";
import { buildLibrarySnapshot, decodeLibrarySnapshot, encodeLibrarySnapshot } from "./library-snapshot.js";
import { planRenderedCatalog, renderCatalog, type CatalogRenderOptions } from "./render-catalog.js";

const SOURCE = "backend:/skills/";
const WORDS = [
  "Review",
  "release notes",
  "CSV",
  "exports",
  "Kubernetes",
  "l'équipe",
  "don't",
  "日本語",
  "😀",
  "v2.1",
  "(beta)",
  "—",
  "a/b",
  "x_y",
];

// A library from a seed: names with and without a shared prefix (the catalog's groups), some in
// collections of their own, descriptions of mixed words and lengths, hints, and skills only a
// user may invoke.
function library(size: number, seed: number, collections = false): SkillMetadata[] {
  let state = seed;
  const next = (below: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % below);
  const skills = Array.from({ length: size }, (_, index): SkillMetadata => {
    const prefix = ["azure", "git", "pdf", "data"][next(4)]!;
    const name = next(5) === 0 ? `tool${index}` : `${prefix}-${String(index).padStart(5, "0")}`;
    const folder = collections ? `/skills/${["team-a", "team-b", "vendor/x"][next(3)]}` : "/skills";
    const words = Array.from({ length: 3 + next(60) }, () => WORDS[next(WORDS.length)]!);
    return {
      name,
      description: `${words.join(next(3) === 0 ? ", " : " ")}.`,
      path: `${folder}/${name}/SKILL.md`,
      metadata: {},
      allowedTools: [],
      source: SOURCE,
      ...(next(9) === 0 ? { argumentHint: "[file] [--dry-run]" } : {}),
      ...(next(20) === 0 ? { disableModelInvocation: true } : {}),
    };
  });
  return skills.sort((a, b) => (a.name < b.name ? -1 : 1));
}

// What the engine renders with its defaults, for the LangChain middleware and for deepagents.
const DEFAULTS: CatalogRenderOptions[] = ["read_skill_resource", "read_file"].map((read) => ({
  budget: 5000,
  maxDescriptionLength: 250,
  resourceReadTool: read,
  searchTool: "search_skills",
  sourceOrder: [SOURCE],
}));

// Plans `skills` in a process that knows only `table`'s counts (a fresh module graph, as a worker
// that joined from a snapshot): the plan, or undefined where it met a piece it has no count for.
async function planWithTable(table: TokenCountTable, skills: readonly SkillMetadata[], options: CatalogRenderOptions) {
  vi.resetModules();
  const known = await import("../text/known-token-counts.js");
  const render = await import("./render-catalog.js");
  known.rememberTokenCounts(table);
  return known.withKnownTokenCounts((count) => render.planRenderedCatalog(skills, options, count));
}

describe("catalogTokenTable", () => {
  it.each([
    ["a small library (every line fits)", library(40, 1)],
    ["a large one in one folder (groups by name)", library(3000, 2)],
    ["a large one in collections (groups by folder)", library(2500, 3, true)],
  ])("%s: the default catalogs plan from the table alone, exactly as with the encoding", async (_, skills) => {
    const encoding = await loadTokenCounter();
    const table = await catalogTokenTable(skills, SOURCE);
    for (const options of DEFAULTS) {
      const expected = planRenderedCatalog(skills, options, encoding);
      expect(await planWithTable(table, skills, options)).toEqual(expected);
    }
  });

  it("other budgets and pins plan from the table too; other lengths and formats as with the encoding whenever it suffices", async () => {
    const encoding = await loadTokenCounter();
    const skills = library(1200, 4, true);
    const table = await catalogTokenTable(skills, SOURCE);
    const pinned = [skills[7]!.name, skills[300]!.name];
    for (const options of [{ budget: 800 }, { budget: 20_000, pinned }, {}, { budget: 3000, pinned }]) {
      const full = { ...options, searchTool: "search_skills", sourceOrder: [SOURCE] };
      expect(await planWithTable(table, skills, full)).toEqual(planRenderedCatalog(skills, full, encoding));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          budget: fc.option(fc.integer({ min: 500, max: 40_000 }), { nil: undefined }),
          maxDescriptionLength: fc.constantFrom(250, 120, 40),
          pinned: fc.subarray(
            skills.slice(0, 50).map((skill) => skill.name),
            { maxLength: 4 },
          ),
          format: fc.constantFrom("markdown" as const, "xml" as const),
        }),
        async ({ budget, ...rest }) => {
          const options: CatalogRenderOptions = {
            ...rest,
            ...(budget === undefined ? {} : { budget }),
            sourceOrder: [SOURCE],
            searchTool: "search_skills",
          };
          const known = await planWithTable(table, skills, options);
          if (known !== undefined) expect(known).toEqual(planRenderedCatalog(skills, options, encoding));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("renderCatalog gives the encoding's catalog whether or not the counts it knows suffice", async () => {
    const encoding = await loadTokenCounter();
    const skills = library(600, 5);
    rememberTokenCounts(await catalogTokenTable(skills.slice(0, 300), SOURCE));
    for (const options of [...DEFAULTS, { budget: 2000, format: "xml" as const }])
      expect(await renderCatalog(skills, options)).toEqual(planRenderedCatalog(skills, options, encoding));
  });

  it("a snapshot keeps the table in its verified content, and one whose table is malformed does not verify", async () => {
    const skills = library(30, 6);
    const snapshot = await buildLibrarySnapshot(
      SOURCE,
      skills.map((skill) => ({ skill, digest: "0".repeat(64), files: [], filesTruncated: false })),
      [],
    );
    expect(snapshot.tokens).toEqual(await catalogTokenTable(skills, SOURCE));
    const stored = encodeLibrarySnapshot(snapshot);
    const decoded = await decodeLibrarySnapshot(stored, SOURCE, snapshot.generation);
    expect(decoded).toEqual({ ok: true, value: snapshot });
    for (const tokens of [[], { "0": ["a"] }, { "1": "a" }, { "1": [""] }, { x: ["a"] }, null]) {
      const content = JSON.stringify({ ...JSON.parse(stored.content), tokens });
      const generation = await sha256Hex(`${SOURCE}\n${content}`);
      expect(await decodeLibrarySnapshot({ ...stored, content, generation }, SOURCE, generation)).toEqual({
        ok: false,
        problem: "its token counts are malformed",
        newer: false,
      });
    }
  });
});
