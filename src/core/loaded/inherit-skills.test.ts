import { describe, expect, it } from "vitest";
import { planInheritance } from "./inherit-skills.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const catalog = new Map(["a", "b", "c", "d"].map((name) => [name, { name } as SkillMetadata]));
const resource = { path: "/s/a/references/x.md", relativePath: "references/x.md", type: "reference" as const };

describe("planInheritance", () => {
  it("loads the parent's skills in its order, with its resources and its last instruction text of each; an invocation's note is cut", () => {
    const plan = planInheritance(
      {
        loaded: ["a", "b"],
        resources: { a: [resource] },
        texts: [
          '<skill name="a" path="p">old</skill>',
          "other",
          '<skill name="a" path="p">new</skill>',
          '<skill name="b" path="q">B</skill>\nThe user invoked this skill: /b now\nFollow its instructions now.',
        ],
      },
      { loaded: [], maxLoaded: 10, visibleTexts: [] },
      catalog,
    );
    expect(plan).toEqual({
      operations: [
        { kind: "load", skill: "a", resources: [resource] },
        { kind: "load", skill: "b", resources: [] },
      ],
      instructions: ['<skill name="a" path="p">new</skill>', '<skill name="b" path="q">B</skill>'],
      inherited: ["a", "b"],
      skipped: [],
    });
  });

  it("keeps the most recently loaded when slots run out, skips what the catalog lacks, and adds no text the subagent already sees", () => {
    const plan = planInheritance(
      {
        loaded: ["a", "x", "b", "c"],
        resources: {},
        texts: [
          '<skill name="b" path="q">B</skill>',
          '<skill name="c" path="r">C</skill>',
          '<skill name="ab" path="s">AB</skill>',
        ],
      },
      { loaded: ["d"], maxLoaded: 3, visibleTexts: ['<skill name="c" path="r">C</skill>'] },
      catalog,
    );
    expect(plan.inherited).toEqual(["b", "c"]);
    expect(plan.instructions).toEqual(['<skill name="b" path="q">B</skill>']);
    expect(plan.skipped).toEqual([
      { skill: "x", reason: "not-in-catalog" },
      { skill: "a", reason: "no-slot" },
    ]);
  });

  it("inherits nothing the subagent has loaded already", () => {
    expect(
      planInheritance(
        { loaded: ["a"], resources: {}, texts: [] },
        { loaded: ["a"], maxLoaded: 1, visibleTexts: [] },
        catalog,
      ),
    ).toEqual({ operations: [], instructions: [], inherited: [], skipped: [] });
  });
});
