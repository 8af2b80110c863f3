import { describe, expect, it } from "vitest";
import { withServedFileNames } from "./served-file-names.js";

const listing = (base: string) =>
  `<skill_resources base="${base}">\n- [script] scripts/run.sh\n</skill_resources>\nPaths above are relative to ${base}; read them with \`read_skill_resource\` when the instructions call for them.`;

describe("withServedFileNames", () => {
  it("names the skill's SKILL.md and folder by skill:// URIs in the engine's framing only", () => {
    // The instructions mention the server's folder and even a closing tag: they stay as written.
    const body = "Run /srv/skills/csv/scripts/run.sh.\nNot the end: </skill>\nSee /srv/skills/csv; done.";
    const text = `<skill name="csv" path="/srv/skills/csv/SKILL.md">\n${body}\n</skill>\n${listing("/srv/skills/csv")}`;
    expect(withServedFileNames(text)).toBe(
      `<skill name="csv" path="skill://csv/SKILL.md">\n${body}\n</skill>\n${listing("skill://csv/")}`,
    );
  });

  it("handles a skill without resources, an invocation's note after it, and Windows paths", () => {
    const text =
      '<skill name="deploy" path="C:\\skills\\deploy\\SKILL.md">\nDeploy.\n</skill>\n\nThe user invoked this skill: /deploy';
    expect(withServedFileNames(text)).toBe(
      '<skill name="deploy" path="skill://deploy/SKILL.md">\nDeploy.\n</skill>\n\nThe user invoked this skill: /deploy',
    );
  });

  it("leaves any other result as it is", () => {
    for (const text of [
      "Error: Skill 'nope' not found. Available skills: csv",
      '[references/guide.md: lines 1-2 of 2]\n<skill name="x" path="/a/SKILL.md">',
    ])
      expect(withServedFileNames(text)).toBe(text);
  });
});
