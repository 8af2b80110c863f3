import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { lintSkill } from "./lint-skill.js";

// Counting words stands in for the tokenizer: these checks do not depend on how tokens are counted.
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function skill(description: string): SkillMetadata {
  return { name: "demo", description, path: "/s/demo/SKILL.md", source: "test", metadata: {}, allowedTools: [] };
}
const file = (relativePath: string) => ({ path: `/s/demo/${relativePath}`, relativePath });
const codes = (description: string, body: string, files: string[] = []) =>
  lintSkill(skill(description), `---\nname: demo\ndescription: x\n---\n\n${body}\n`, files.map(file), words).map(
    (finding) => `${finding.code} ${finding.file}`,
  );

describe("lintSkill", () => {
  it.each([
    "Fills PDF forms. Use when the user asks to fill a form.",
    "Fills PDF forms whenever a form arrives.",
    "Fills PDF forms; use it for tax returns.",
    "Fills PDF forms. Triggers on 'fill this form'.",
    "Fills PDF forms for requests about paperwork.",
  ])("accepts a description that says when: %s", (description) => {
    expect(codes(description, "Steps.")).toEqual([]);
  });

  it.each(["Fills PDF forms.", "PDF form filling, flattening and signing toolkit."])(
    "reports a description that says only what: %s",
    (description) => {
      expect(codes(description, "Steps.")).toEqual(["description-without-when /s/demo/SKILL.md"]);
    },
  );

  it("counts a resource named by its path, its file name or a folder it is in; a licence needs no mention", () => {
    const files = ["scripts/fill.py", "references/deep/FORMS.md", "assets/logo.png", "LICENSE.txt", "notes.md"];
    expect(codes("Use when asked.", "Run fill.py, then read references/ as needed.", files)).toEqual([
      "unmentioned-resource /s/demo/assets/logo.png",
      "unmentioned-resource /s/demo/notes.md",
    ]);
    expect(
      codes("Use when asked.", "See assets/logo.png and notes.md; run scripts/fill.py; read FORMS.md.", files),
    ).toEqual([]);
  });

  it("leaves the author's evals/ folder out: the model is not meant to read the test answers", () => {
    const files = ["evals/eval_queries.json", "evals/files/input.pdf", "scripts/evals/check.py"];
    expect(codes("Use when asked.", "Steps.", files)).toEqual(["unmentioned-resource /s/demo/scripts/evals/check.py"]);
  });

  it("measures the body without the frontmatter: 500 lines pass, 501 do not", () => {
    const body = (lines: number) => Array.from({ length: lines }, (_, index) => `line ${index}`).join("\n");
    expect(codes("Use when asked.", body(500))).toEqual([]);
    expect(codes("Use when asked.", body(501))).toEqual(["body-too-many-lines /s/demo/SKILL.md"]);
    // 2,501 lines of two words: over 5,000 "tokens" as counted here.
    expect(codes("Use when asked.", body(2501))).toEqual([
      "body-too-many-lines /s/demo/SKILL.md",
      "body-too-many-tokens /s/demo/SKILL.md",
    ]);
  });
});
