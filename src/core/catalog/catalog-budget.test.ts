import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runSteps } from "../run-steps.js";
import { planCatalogSteps, type CatalogGroups, type CatalogLayout, type CatalogPlanInput } from "./catalog-budget.js";
import { renderCatalog } from "./render-catalog.js";
import { countTokens } from "../text/count-tokens.js";
import { renderCatalogMarkdown } from "./prompt-markdown.js";
import { renderCatalogXml } from "./prompt-xml.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const planCatalog = <S>(input: CatalogPlanInput<S>) => runSteps(planCatalogSteps(input));

// A layout and a counter simple enough to compute by hand: one "token" per character.
const layout: CatalogLayout<string> = {
  entry: (skill, tier) => (tier === "full" ? `${skill}:full-description` : tier === "short" ? `${skill}:short` : skill),
  render: ({ full, short, named, hidden }: CatalogGroups<string>) =>
    [
      "G",
      ...full.map((skill) => `${skill}:full-description`),
      ...short.map((skill) => `${skill}:short`),
      ...(named.length > 0 ? [`N ${named.join(",")}`] : []),
      ...(hidden.length > 0 ? [`+${hidden.length}`] : []),
    ].join("\n"),
};
const count = (text: string) => text.length;
const plan = (
  skills: string[],
  budget: number | undefined,
  pinned: string[] = [],
  priority = [...pinned, ...skills.filter((skill) => !pinned.includes(skill))],
) => {
  const planned = planCatalog({
    skills,
    priority: priority.map((skill) => skills.indexOf(skill)),
    pinned: new Set(pinned.map((skill) => skills.indexOf(skill))),
    budget,
    layout,
    count,
  });
  // Skills left out come as indexes into `skills`.
  return { ...planned, hidden: Array.from(planned.hidden, (at) => skills[at]!) };
};
const tiers = (result: ReturnType<typeof plan>) => ({
  full: result.full,
  short: result.short,
  named: result.named,
  hidden: result.hidden,
});

describe("planCatalog", () => {
  const skills = ["aa", "bb", "cc", "dd", "ee", "ff"];

  it("keeps every whole line when the catalog fits, and with no budget", () => {
    const whole = plan(skills, undefined);
    expect(tiers(whole)).toEqual({ full: skills, short: [], named: [], hidden: [] });
    expect(plan(skills, whole.tokens)).toEqual(whole);
  });

  it("over the budget, names every skill and gives the first in priority order whole, then shortened lines", () => {
    // Frame: "G", the names line and the count line, 14 with slack; names 3 each; a whole line
    // 17 more than a name, a short one 6 more. 63 - 14 - 6 × 3 = 31 = 17 + 2 × 6 + 2.
    const result = plan(skills, 63);
    expect(tiers(result)).toEqual({ full: ["aa"], short: ["bb", "cc"], named: ["dd", "ee", "ff"], hidden: [] });
    expect(result.text).toBe("G\naa:full-description\nbb:short\ncc:short\nN dd,ee,ff");
    expect(result.tokens).toBe(50);
  });

  it("follows the priority order given, not the catalog order", () => {
    expect(tiers(plan(skills, 63, [], ["ff", "ee", "dd", "cc", "bb", "aa"]))).toEqual({
      full: ["ff"],
      short: ["dd", "ee"],
      named: ["aa", "bb", "cc"],
      hidden: [],
    });
  });

  it("when not even every name fits: pinned skills whole, then names in priority order, the rest counted", () => {
    const many = Array.from({ length: 30 }, (_, index) => `s${String(index).padStart(2, "0")}`);
    const result = plan(many, 80, ["s20"]);
    expect(result.full).toEqual(["s20"]);
    expect(result.short).toEqual([]);
    expect(result.named).toEqual(many.filter((skill) => skill !== "s20").slice(0, result.named.length));
    expect(result.named.length).toBeGreaterThan(5);
    expect(result.hidden).toEqual(many.filter((skill) => skill !== "s20").slice(result.named.length));
    expect(result.text.endsWith(`\n+${result.hidden.length}`)).toBe(true);
    expect(result.tokens).toBeLessThanOrEqual(80);
  });

  it("never exceeds the budget, places every skill exactly once, in contiguous tiers, and is deterministic (property)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 40, max: 2000 }),
        (names, budget) => {
          const result = plan(names, budget);
          expect(result.tokens).toBeLessThanOrEqual(budget);
          expect(result.tokens).toBe(count(result.text));
          expect([...result.full, ...result.short, ...result.named, ...result.hidden].sort()).toEqual(
            [...names].sort(),
          );
          // Tiers in priority (here catalog) order: whole lines first, then shortened, named, counted.
          const order = names.map((name) =>
            result.full.includes(name) ? 0 : result.short.includes(name) ? 1 : result.named.includes(name) ? 2 : 3,
          );
          expect(order).toEqual([...order].sort());
          expect(plan(names, budget)).toEqual(result);
        },
      ),
      { numRuns: 300 },
    );
  });
});

const skill = (
  name: string,
  description: string,
  source = "local:/a",
  extra: Partial<SkillMetadata> = {},
): SkillMetadata => ({
  name,
  description,
  path: `/a/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source,
  ...extra,
});
const library = (size: number, source?: string) =>
  Array.from({ length: size }, (_, index) =>
    skill(
      `tool-${String(index).padStart(3, "0")}`,
      `Handles task number ${index}: converts, validates and summarises the records of that task for its team.`,
      source,
    ),
  );

describe("renderCatalog", () => {
  it("under the budget, is exactly the unbudgeted Markdown and XML catalogs", async () => {
    const skills = library(5);
    expect((await renderCatalog(skills, { budget: 5000 })).text).toBe(renderCatalogMarkdown(skills));
    expect((await renderCatalog(skills, { format: "xml", budget: 5000 })).text).toBe(renderCatalogXml(skills));
  });

  it("renders a skill whose description holds a special token's text, counting it as ordinary text", async () => {
    const skills = [skill("tokenizers", "Explains what <|endoftext|> marks in GPT's tokenizer."), ...library(3)];
    const rendered = await renderCatalog(skills, { budget: 5000 });
    expect(rendered.text).toBe(renderCatalogMarkdown(skills));
    expect(rendered.tokens).toBe(await countTokens(rendered.text));
    expect(rendered.full).toEqual(["tokenizers", "tool-000", "tool-001", "tool-002"]);
  });

  it("over the budget, names what it shortened and left out, points to the search tool and stays within the budget", async () => {
    const skills = library(400);
    const rendered = await renderCatalog(skills, { budget: 600, searchTool: "search_skills" });
    expect(rendered.tokens).toBeLessThanOrEqual(600);
    expect(rendered.full.length + rendered.short.length + rendered.named.length + rendered.hidden.length).toBe(400);
    expect(rendered.hidden.length).toBeGreaterThan(0);
    expect(rendered.text).toContain(
      `\n- ${rendered.hidden.length} more skills are not listed here: find them with \`search_skills\`.\n`,
    );
    expect(rendered.text).toContain(
      `\n- More skills, by name only (\`load_skill\` shows what one does): ${rendered.named.join(", ")}\n`,
    );
    expect(await renderCatalog(skills, { budget: 600, searchTool: "search_skills" })).toEqual(rendered);
  });

  it("gives whole lines to pinned skills first, then to later sources' skills before earlier ones'", async () => {
    const early = library(40, "local:/early");
    const late = [skill("zz-project", "The project's own skill.", "local:/late")];
    const rendered = await renderCatalog([...early, ...late], {
      budget: 700,
      pinned: ["tool-039"],
      sourceOrder: ["local:/early", "local:/late"],
    });
    // Priority: tool-039 (pinned), zz-project (the later source), then tool-000, tool-001, …
    const whole = rendered.full.length;
    expect(whole).toBeGreaterThan(2);
    expect(whole).toBeLessThan(41);
    expect(rendered.full).toEqual([...early.slice(0, whole - 2).map((entry) => entry.name), "tool-039", "zz-project"]);
    expect(rendered.tokens).toBeLessThanOrEqual(700);
  });

  it("leaves out skills only a user may invoke from the Markdown catalog, but not from the XML one", async () => {
    const skills = [skill("a", "A."), skill("manual", "Manual.", undefined, { disableModelInvocation: true })];
    expect((await renderCatalog(skills)).full).toEqual(["a"]);
    expect((await renderCatalog(skills, { format: "xml" })).full).toEqual(["a", "manual"]);
  });

  it("in XML, shortens descriptions, drops them for named skills and counts the rest in <more_skills>", async () => {
    const rendered = await renderCatalog(library(300), { format: "xml", budget: 2000, searchTool: "search_skills" });
    expect(rendered.tokens).toBeLessThanOrEqual(2000);
    expect(rendered.hidden.length).toBeGreaterThan(0);
    expect(rendered.text).toContain(
      `<skill>\n<name>\n${rendered.named[0]}\n</name>\n<location>\n/a/${rendered.named[0]}/SKILL.md\n</location>\n</skill>`,
    );
    expect(
      rendered.text.endsWith(
        `<more_skills count="${rendered.hidden.length}">${rendered.hidden.length} more skills are not listed here. Find them with search_skills.</more_skills>\n</available_skills>`,
      ),
    ).toBe(true);
  });
});
