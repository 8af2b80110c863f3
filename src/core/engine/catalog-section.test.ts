import { describe, expect, it } from "vitest";
import type { SkillsLogEntry } from "../skill-events.js";
import type { SkillEngineOptions, SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { rendering } from "./catalog-cache.js";
import { catalogSection, overBudget } from "./catalog-section.js";
import { createEngineContext } from "./engine-context.js";

const meta = (name: string): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
});

function setup(options: SkillEngineOptions) {
  const entries: SkillsLogEntry[] = [];
  const sink: SkillsLogEntry[] = [];
  const context = createEngineContext({ ...options, logger: (entry) => entries.push(entry) });
  const request: SkillRequest = {
    state: { loaded: [], resources: {} },
    sources: async () => [],
    emit: (entry) => sink.push(entry),
  };
  return { context, request, entries, sink };
}

describe("catalogSection", () => {
  it("renders a catalog version once, and reports it over budget once, to the engine's logger only", async () => {
    const { context, request, entries, sink } = setup({ catalogBudget: 1 });
    const catalog = rendering([meta("alpha"), meta("beta")]);
    const section = await catalogSection(context, request, catalog);
    expect(await catalogSection(context, request, catalog)).toBe(section);
    expect(section.hidden).toEqual(["alpha", "beta"]);
    expect(entries).toEqual([
      {
        level: "info",
        event: "catalog_over_budget",
        message: `The skills catalog is over its budget of 1 tokens: 0 whole, 0 shortened, 0 by name only, 2 left out (search_skills finds them); it now takes ${section.tokens} tokens`,
        budget: 1,
        tokens: section.tokens,
        full: 0,
        shortened: [],
        namedOnly: [],
        leftOut: ["alpha", "beta"],
      },
    ]);
    expect(sink).toEqual([]);
  });

  it("warns when skills are left out and no search tool can find them", async () => {
    const { context, request, entries } = setup({ catalogBudget: 1, search: { offer: "never" } });
    const section = await catalogSection(context, request, rendering([meta("alpha")]));
    expect(entries.map(({ level, message }) => ({ level, message }))).toEqual([
      {
        level: "warn",
        message: `The skills catalog is over its budget of 1 tokens: 0 whole, 0 shortened, 0 by name only, 1 left out (no search tool: the model cannot see them); it now takes ${section.tokens} tokens`,
      },
    ]);
  });

  it("under its budget, shows every skill whole and reports nothing", async () => {
    const { context, request, entries } = setup({});
    const section = await catalogSection(context, request, rendering([meta("alpha"), meta("beta")]));
    expect(section.full).toEqual(["alpha", "beta"]);
    expect(overBudget(section)).toBe(false);
    expect(entries).toEqual([]);
  });
});
