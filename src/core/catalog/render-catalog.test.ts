import { describe, expect, it } from "vitest";
import { turnsDuring } from "../../../test/helpers/event-loop-turns.js";
import { planRenderedCatalog, renderCatalog } from "./render-catalog.js";
import { loadTokenCounter } from "../text/count-tokens.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// `collections` folders of skills, which take turns in the library.
const library = (count: number, collections = 1): SkillMetadata[] =>
  Array.from({ length: count }, (_, at) => {
    const name = `skill-${String(at).padStart(5, "0")}`;
    return {
      name,
      description: `Checks the ${at % 7} reports of team ${at % 13} before a release.`,
      path: collections === 1 ? `/lib/skills/${name}/SKILL.md` : `/lib/team-${at % collections}/${name}/SKILL.md`,
      metadata: {},
      allowedTools: [],
      source: "local:/lib/skills",
    };
  });

describe("renderCatalog of a large library", () => {
  it("lets the event loop run between its passes over the skills, and renders what planRenderedCatalog does", async () => {
    const count = await loadTokenCounter();
    const skills = library(6000);
    const options = { budget: 2000, searchTool: "search_skills" };
    let ran = false;
    setImmediate(() => (ran = true));
    const rendered = await renderCatalog(skills, options);
    expect(ran).toBe(true);
    expect(rendered).toEqual(planRenderedCatalog(skills, options, count));
  });

  it("lets the event loop run inside its passes: grouping 40,000 skills of many folders, and planning", async () => {
    const count = await loadTokenCounter();
    const skills = library(40_000, 500);
    const options = { budget: 2000, searchTool: "search_skills" };
    const { result: rendered, turns } = await turnsDuring(() => renderCatalog(skills, options));
    // After the columns, twice in the grouping and after it, and after the plan's renders (two or
    // more); in one go, the grouping and the plan let nothing run (two turns in all).
    expect(turns).toBeGreaterThanOrEqual(6);
    expect(rendered.hidden.length).toBeGreaterThan(39_000);
    expect(rendered.text).toMatch(/team-\d+\/ \(80\).*\n {2}- 420 more groups: \d+ skills\n/);
    expect(rendered).toEqual(planRenderedCatalog(skills, options, count));
  });

  it("does not pause for a small library", async () => {
    await loadTokenCounter();
    let ran = false;
    setImmediate(() => (ran = true));
    await renderCatalog(library(50), { budget: 2000 });
    expect(ran).toBe(false);
  });
});
