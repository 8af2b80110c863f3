import { describe, expect, it } from "vitest";
import { planRenderedCatalog, renderCatalog } from "./render-catalog.js";
import { loadTokenCounter } from "../text/count-tokens.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const library = (count: number): SkillMetadata[] =>
  Array.from({ length: count }, (_, at) => {
    const name = `skill-${String(at).padStart(5, "0")}`;
    return {
      name,
      description: `Checks the ${at % 7} reports of team ${at % 13} before a release.`,
      path: `/lib/skills/${name}/SKILL.md`,
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

  it("does not pause for a small library", async () => {
    await loadTokenCounter();
    let ran = false;
    setImmediate(() => (ran = true));
    await renderCatalog(library(50), { budget: 2000 });
    expect(ran).toBe(false);
  });
});
