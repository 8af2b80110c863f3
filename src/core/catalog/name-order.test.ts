import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { collectSkills } from "./collect-skills.js";
import { inNameOrder } from "./name-order.js";

const skill = (name: string): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/skills/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "test",
});
const collected = (names: string[]) =>
  collectSkills(
    names.map((name) => ({ skill: skill(name), diagnostics: [] })),
    "test",
    [],
  );

describe("inNameOrder", () => {
  it("compares names by code point: an astral character sorts after U+FF5E, as UTF-16 units do not", () => {
    expect(inNameOrder([skill("a\uFF5E"), skill("a\u{1F600}")])).toBe(true);
    expect(inNameOrder([skill("a\u{1F600}"), skill("a\uFF5E")])).toBe(false);
    expect(inNameOrder([skill("a"), skill("a")])).toBe(false);
  });

  it("trusts a list collectSkills found in name order, without going through it again", () => {
    const skills = collected(["a", "b\uFF5E", "b\u{1F600}", "c"]);
    expect(skills.map((known) => known.name)).toEqual(["a", "b\uFF5E", "b\u{1F600}", "c"]);
    // Put out of order behind its back (which no source does): still trusted, so no pass was made.
    skills.reverse();
    expect(inNameOrder(skills)).toBe(true);
  });

  it("checks a list collectSkills found out of order", () => {
    const skills = collected(["b", "a"]);
    expect(inNameOrder(skills)).toBe(false);
    skills.reverse();
    expect(inNameOrder(skills)).toBe(true);
  });
});
