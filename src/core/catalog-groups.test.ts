import { describe, expect, it } from "vitest";
import { groupSkills, summarizeHidden } from "./catalog-groups.js";
import { renderCatalog } from "./render-catalog.js";
import type { SkillMetadata } from "./skill-metadata.js";

const at = (path: string, name = path.split("/").at(-2)!, source = "local:/u/skills"): SkillMetadata => ({ name, description: `Does the ${name} job for the team, with checks and a short report of what changed.`, path, metadata: {}, allowedTools: [], source });

describe("groupSkills", () => {
  it("names each skill's group by its parent folder, from where the folders part", () => {
    const skills = [at("/u/skills/anthropics/skills/pdf/SKILL.md"), at("/u/skills/anthropics/skills/docx/SKILL.md"), at("/u/skills/team/ops/deploy/SKILL.md"), at("/u/skills/loose/SKILL.md")];
    expect([...groupSkills(skills)!.values()]).toEqual(["anthropics/skills/", "anthropics/skills/", "team/ops/", "skills/"]);
    // Backslashes (Windows paths) are folders too.
    expect([...groupSkills([at("C:\\s\\a\\x\\SKILL.md", "x"), at("C:\\s\\b\\y\\SKILL.md", "y")])!.values()]).toEqual(["a/", "b/"]);
  });

  it("in one folder, groups by the first word of the name when several words are shared, and not at all otherwise", () => {
    const flat = ["azure-vm", "azure-blob", "aws-s3", "aws-lambda", "pdf"].map((name) => at(`/u/skills/${name}/SKILL.md`));
    expect([...groupSkills(flat)!.values()]).toEqual(["azure-*", "azure-*", "aws-*", "aws-*", "other"]);
    expect(groupSkills(["task-1", "task-2", "pdf"].map((name) => at(`/u/skills/${name}/SKILL.md`)))).toBeUndefined();
    expect(groupSkills([])).toBeUndefined();
  });
});

describe("summarizeHidden", () => {
  it("gives the eight largest groups with their first three names, and counts the rest", () => {
    const hidden = Array.from({ length: 12 }, (_, group) => Array.from({ length: 12 - group }, (_, index) => ({ name: `g${group}-s${index}` }))).flat();
    const groupOf = new Map(hidden.map((skill) => [skill, `g${skill.name.split("-")[0]!.slice(1)}/`]));
    const summary = summarizeHidden(hidden, groupOf);
    expect(summary.groups.map((group) => [group.label, group.count])).toEqual([["g0/", 12], ["g1/", 11], ["g2/", 10], ["g3/", 9], ["g4/", 8], ["g5/", 7], ["g6/", 6], ["g7/", 5]]);
    expect(summary.groups[0]!.examples).toEqual(["g0-s0", "g0-s1", "g0-s2"]);
    expect(summary.rest).toEqual({ groups: 4, count: 4 + 3 + 2 + 1 });
  });
});

describe("renderCatalog over the budget, with groups", () => {
  // 40 skills in each of two big collections, 5 in a small one: names do not all fit in 400 tokens.
  const collection = (folder: string, prefix: string, size: number) => Array.from({ length: size }, (_, index) => at(`/u/skills/${folder}/${prefix}-${String(index).padStart(2, "0")}/SKILL.md`));
  const skills = [...collection("alpha", "alpha", 40), ...collection("beta", "beta", 40), ...collection("zeta", "zeta", 5)].sort((a, b) => (a.name < b.name ? -1 : 1));

  it("shares the named lines between the collections in turns, not alphabetically", async () => {
    const rendered = await renderCatalog(skills, { budget: 400, searchTool: "search_skills" });
    expect(rendered.hidden.length).toBeGreaterThan(0);
    // The groups are shown in catalog order; which skills are named went by turns: each collection's first ones.
    const named = (prefix: string) => rendered.named.filter((name) => name.startsWith(prefix));
    expect(named("zeta")).toEqual(["zeta-00", "zeta-01", "zeta-02", "zeta-03", "zeta-04"]);
    expect(named("alpha")).toEqual(skills.filter((entry) => entry.name.startsWith("alpha")).slice(0, named("alpha").length).map((entry) => entry.name));
    expect(named("alpha").length).toBeGreaterThan(5);
    expect(Math.abs(named("alpha").length - named("beta").length)).toBeLessThanOrEqual(1);
    expect(rendered.tokens).toBeLessThanOrEqual(400);
  });

  it("says which collections the skills left out belong to, how many, and a few names", async () => {
    const rendered = await renderCatalog(skills, { budget: 400, searchTool: "search_skills" });
    const left = (prefix: string) => rendered.hidden.filter((name) => name.startsWith(prefix));
    expect(rendered.text).toContain(
      `\n- ${rendered.hidden.length} more skills are not listed here: find them with \`search_skills\`. Among them:\n  - alpha/: ${left("alpha").length} skills, e.g. ${left("alpha").slice(0, 3).join(", ")}\n  - beta/: ${left("beta").length} skills, e.g. ${left("beta").slice(0, 3).join(", ")}\n`,
    );
    const xml = await renderCatalog(skills, { format: "xml", budget: 1500, searchTool: "search_skills" });
    expect(xml.tokens).toBeLessThanOrEqual(1500);
    expect(xml.text).toMatch(/<more_skills count="\d+">\d+ more skills are not listed here\. Find them with search_skills\.\n(<group name="(alpha|beta)\/" count="\d+">\2-\d\d, \2-\d\d, \2-\d\d<\/group>\n){2}<\/more_skills>\n<\/available_skills>$/);
  });

  it("keeps source precedence first: a later source's skills are named before any earlier one's", async () => {
    const project = collection("project", "proj", 3).map((entry) => ({ ...entry, source: "local:/p" }));
    const rendered = await renderCatalog([...skills, ...project], { budget: 400, sourceOrder: ["local:/u/skills", "local:/p"] });
    expect([...rendered.full, ...rendered.short, ...rendered.named].filter((name) => name.startsWith("proj"))).toEqual(["proj-00", "proj-01", "proj-02"]);
  });
});
