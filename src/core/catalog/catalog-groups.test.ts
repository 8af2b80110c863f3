import { describe, expect, it } from "vitest";
import { runSteps } from "../run-steps.js";
import { groupSkillsInSteps, type NotedParents, type SkillGroups, summarizeHidden } from "./catalog-groups.js";
import { notedParentFolder, ParentFolderNotes } from "./skill-parent-folder.js";
import { renderCatalog } from "./render-catalog.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const groupSkills = (names: readonly string[], paths: readonly string[], noted: NotedParents = []) =>
  runSteps(groupSkillsInSteps(names, paths, noted));

const skillAt = (path: string, name = path.split("/").at(-2)!, source = "local:/u/skills"): SkillMetadata => ({
  name,
  description: `Does the ${name} job for the team, with checks and a short report of what changed.`,
  path,
  metadata: {},
  allowedTools: [],
  source,
});

// Each skill's label, or undefined when the skills are not grouped.
const labelsOf = (skills: readonly SkillMetadata[]) => {
  const groups = groupSkills(
    skills.map((skill) => skill.name),
    skills.map((skill) => skill.path),
  );
  return groups && [...groups.of].map((id) => groups.labels[id]);
};
// Groups of skills named by `names`, labelled by `labelOf`, every one left out.
const leftOut = (names: string[], labelOf: (name: string) => string) => {
  const labels = [...new Set(names.map(labelOf))];
  const groups: SkillGroups = { of: Int32Array.from(names, (name) => labels.indexOf(labelOf(name))), labels, names };
  return summarizeHidden(
    Int32Array.from(names, (_, at) => at),
    groups,
  );
};

describe("groupSkills", () => {
  it("names each skill's group by its parent folder, from where the folders part", () => {
    const skills = [
      skillAt("/u/skills/anthropics/skills/pdf/SKILL.md"),
      skillAt("/u/skills/anthropics/skills/docx/SKILL.md"),
      skillAt("/u/skills/team/ops/deploy/SKILL.md"),
      skillAt("/u/skills/loose/SKILL.md"),
    ];
    expect(labelsOf(skills)).toEqual(["anthropics/skills/", "anthropics/skills/", "team/ops/", "skills/"]);
    // Backslashes (Windows paths) are folders too.
    expect(labelsOf([skillAt("C:\\s\\a\\x\\SKILL.md", "x"), skillAt("C:\\s\\b\\y\\SKILL.md", "y")])).toEqual([
      "a/",
      "b/",
    ]);
  });

  it("in one folder, groups by the first word of the name when several words are shared, and not at all otherwise", () => {
    const flat = ["azure-vm", "azure-blob", "aws-s3", "aws-lambda", "pdf"].map((name) =>
      skillAt(`/u/skills/${name}/SKILL.md`),
    );
    expect(labelsOf(flat)).toEqual(["azure-*", "azure-*", "aws-*", "aws-*", "other"]);
    expect(labelsOf(["task-1", "task-2", "pdf"].map((name) => skillAt(`/u/skills/${name}/SKILL.md`)))).toBeUndefined();
    expect(labelsOf([])).toBeUndefined();
    // A backslash in a folder's name is a separator too: that skill is not in the others' folder.
    expect(
      labelsOf([
        skillAt("/u/skills/azure-a/SKILL.md"),
        skillAt("/u/skills/azure-b/SKILL.md"),
        skillAt("/u/skills/aws\\c/SKILL.md"),
      ]),
    ).toEqual(["skills/", "skills/", "aws/"]);
  });
});

// Each skill's label by the rules written plainly, path by path: what groupSkills must give
// (labels without characters that label() escapes).
function plainLabels(names: readonly string[], paths: readonly string[]): string[] | undefined {
  const parts = paths.map((path) => path.replace(/\\/g, "/").split("/").slice(0, -2));
  const parentOf = (at: number) => paths[at]!.replace(/\\/g, "/").split("/").slice(0, -2).join("/");
  if (paths.every((_, at) => parentOf(at) === parentOf(0))) {
    const prefixes = names.map((name) => (name.includes("-") ? `${name.slice(0, name.indexOf("-") + 1)}*` : undefined));
    const size = (prefix: string | undefined) => prefixes.filter((other) => other === prefix).length;
    if (new Set(prefixes.filter((prefix) => prefix !== undefined && size(prefix) > 1)).size < 2) return undefined;
    return prefixes.map((prefix) => (prefix !== undefined && size(prefix) > 1 ? prefix : "other"));
  }
  let shared = 0;
  while (parts.every((each) => shared < each.length && each[shared] === parts[0]![shared])) shared++;
  return parts.map((each) => `${each.length > shared ? each.slice(shared).join("/") : each.at(-1)}/`);
}

describe("groupSkills on odd paths", () => {
  it("labels as the plain rules do: few separators, backslashes, parents that begin or end alike, names that begin alike", () => {
    let seed = 7;
    const pick = <T>(items: readonly T[]) => items[(seed = (seed * 16_807) % 2_147_483_647) % items.length]!;
    const folders = [
      "/u/skills",
      "/u/skills",
      "/u/skills",
      "/u/skill",
      "/u/skillsx",
      "",
      "u",
      "C:\\u\\skills",
      "/u\\skills",
      // Long parents that end alike (and have one length): their hashes are the same.
      `/one/${"deep".repeat(8)}/skills`,
      `/two/${"deep".repeat(8)}/skills`,
    ];
    const tails = [
      "/a/SKILL.md",
      "/b/SKILL.md",
      "\\c\\SKILL.md",
      "/d\\SKILL.md",
      "/SKILL.md",
      "",
      "/e/f/SKILL.md",
      "//SKILL.md",
    ];
    const words = ["azure-vm", "azure-blob", "azurex-a", "azure", "aws-s3", "aws-", "-x", "pdf", "aws-s3-b"];
    for (let round = 0; round < 400; round++) {
      const size = 1 + (round % 9);
      const paths = Array.from({ length: size }, () => pick(folders) + pick(tails));
      const names = Array.from({ length: size }, () => pick(words));
      // Folders noted by a reader on none, some or every skill, each noted in an order of its own
      // (a reader notes in the order it reads).
      const skills = paths.map((path, at) => ({ ...skillAt(path, names[at]!), order: pick([0, 1, 2, 3]) }));
      const notes = new ParentFolderNotes();
      for (const skill of [...skills].sort((a, b) => a.order - b.order))
        if (skill.order >= round % 5) notes.note(skill);
      const noted = skills.map((skill) => notedParentFolder(skill));
      const groups = groupSkills(names, paths, noted);
      const labels = groups && [...groups.of].map((id) => groups.labels[id]);
      expect(labels, JSON.stringify({ names, paths, noted })).toEqual(plainLabels(names, paths));
      // Labels numbered as first met.
      if (groups) expect(groups.labels).toEqual([...new Set(labels)]);
    }
  });
});

describe("summarizeHidden", () => {
  it("lists groups largest first, the eight largest with three names spread over them, and counts those past 80", () => {
    const hidden = Array.from({ length: 12 }, (_, group) =>
      Array.from({ length: 12 - group }, (_, index) => `g${group}-s${index}`),
    ).flat();
    const summary = leftOut(hidden, (name) => `g${name.split("-")[0]!.slice(1)}/`);
    expect(summary.groups.map((group) => [group.label, group.count, group.examples.length])).toEqual(
      Array.from({ length: 12 }, (_, group) => [`g${group}/`, 12 - group, group < 8 ? 3 : 0]),
    );
    // Spread over the group: the first, and a third and two thirds of the way in.
    expect(summary.groups[0]!.examples).toEqual(["g0-s0", "g0-s4", "g0-s8"]);
    expect(summary.rest).toEqual({ groups: 0, count: 0 });

    const many = Array.from({ length: 90 }, (_, index) => `s${index}`);
    const wide = leftOut(many, (name) => `${name}/`);
    expect(wide.groups).toHaveLength(80);
    expect(wide.rest).toEqual({ groups: 10, count: 10 });
  });
});

describe("renderCatalog over the budget, with groups", () => {
  // 40 skills in each of two big collections, 5 in a small one: names do not all fit in 400 tokens.
  const collection = (folder: string, prefix: string, size: number) =>
    Array.from({ length: size }, (_, index) =>
      skillAt(`/u/skills/${folder}/${prefix}-${String(index).padStart(2, "0")}/SKILL.md`),
    );
  const skills = [
    ...collection("alpha", "alpha", 40),
    ...collection("beta", "beta", 40),
    ...collection("zeta", "zeta", 5),
  ].sort((a, b) => (a.name < b.name ? -1 : 1));

  it("shares the named lines between the collections in turns, not alphabetically", async () => {
    const rendered = await renderCatalog(skills, { budget: 400, searchTool: "search_skills" });
    expect(rendered.hidden.length).toBeGreaterThan(0);
    // The groups are shown in catalog order; which skills are named went by turns: each collection's first ones.
    const named = (prefix: string) => rendered.named.filter((name) => name.startsWith(prefix));
    expect(named("zeta")).toEqual(["zeta-00", "zeta-01", "zeta-02", "zeta-03", "zeta-04"]);
    expect(named("alpha")).toEqual(
      skills
        .filter((entry) => entry.name.startsWith("alpha"))
        .slice(0, named("alpha").length)
        .map((entry) => entry.name),
    );
    expect(named("alpha").length).toBeGreaterThan(5);
    expect(Math.abs(named("alpha").length - named("beta").length)).toBeLessThanOrEqual(1);
    expect(rendered.tokens).toBeLessThanOrEqual(400);
  });

  it("says which collections the skills left out belong to, how many, and a few names", async () => {
    const rendered = await renderCatalog(skills, { budget: 400, searchTool: "search_skills" });
    const left = (prefix: string) => rendered.hidden.filter((name) => name.startsWith(prefix));
    const spread = (names: string[]) =>
      [0, 1, 2].map((third) => names[Math.floor((third * names.length) / 3)]).join(", ");
    // Largest first, then by name.
    const groups = ["alpha", "beta"]
      .sort((a, b) => left(b).length - left(a).length || (a < b ? -1 : 1))
      .map((group) => `\n  - ${group}/: ${left(group).length} skills, e.g. ${spread(left(group))}`)
      .join("");
    expect(rendered.text).toContain(
      `\n- ${rendered.hidden.length} more skills are not listed here: find them with \`search_skills\`. Among them:${groups}\n`,
    );
    const xml = await renderCatalog(skills, { format: "xml", budget: 1500, searchTool: "search_skills" });
    expect(xml.tokens).toBeLessThanOrEqual(1500);
    expect(xml.text).toMatch(
      /<more_skills count="\d+">\d+ more skills are not listed here\. Find them with search_skills\.\n(<group name="(alpha|beta)\/" count="\d+">\2-\d\d, \2-\d\d, \2-\d\d<\/group>\n){2}<\/more_skills>\n<\/available_skills>$/,
    );
  });

  it("past the eight largest collections, names the others with their counts on one line", async () => {
    const wide = Array.from({ length: 12 }, (_, index) =>
      collection(`c${String(index).padStart(2, "0")}`, `c${String(index).padStart(2, "0")}x`, 20 + index),
    ).flat();
    const rendered = await renderCatalog(wide, { budget: 600, searchTool: "search_skills" });
    const left = (folder: string) => rendered.hidden.filter((name) => name.startsWith(`${folder}x`)).length;
    expect(rendered.text.match(/\n {2}- c\d\d\/: \d+ skills, e\.g\. /g)).toHaveLength(8);
    expect(rendered.text).toContain(
      `\n  - also: c03/ (${left("c03")}), c02/ (${left("c02")}), c01/ (${left("c01")}), c00/ (${left("c00")})\n`,
    );
    expect(rendered.tokens).toBeLessThanOrEqual(600);
  });

  it("fills the room its estimates left with more names: small collections all named, the summary short", async () => {
    // With every skill left out, the summary would name 22 long folders; once the small ones are
    // named it names two, and the tokens saved go to more names of the big ones.
    const small = Array.from({ length: 20 }, (_, index) =>
      collection(`a-small-collection-with-a-long-name-${index}`, `s${index}`, 2),
    ).flat();
    const big = [...collection("big-one", "one", 60), ...collection("big-two", "two", 60)];
    const rendered = await renderCatalog(
      [...small, ...big].sort((a, b) => (a.name < b.name ? -1 : 1)),
      { budget: 700, searchTool: "search_skills" },
    );
    expect(rendered.hidden.every((name) => name.startsWith("one") || name.startsWith("two"))).toBe(true);
    expect(rendered.tokens).toBeLessThanOrEqual(700);
    expect(rendered.tokens).toBeGreaterThan(700 - 14);
  });

  it("keeps source precedence first: a later source's skills are named before any earlier one's", async () => {
    const project = collection("project", "proj", 3).map((entry) => ({ ...entry, source: "local:/p" }));
    const rendered = await renderCatalog([...skills, ...project], {
      budget: 400,
      sourceOrder: ["local:/u/skills", "local:/p"],
    });
    expect([...rendered.full, ...rendered.short, ...rendered.named].filter((name) => name.startsWith("proj"))).toEqual([
      "proj-00",
      "proj-01",
      "proj-02",
    ]);
  });
});
