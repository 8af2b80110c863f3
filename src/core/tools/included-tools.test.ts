import { describe, expect, it } from "vitest";
import { inspectSkill } from "../skill-file/inspect-skill.js";
import { disclosedTools, includedTools, skillToolsNote, undisclosedToolMessage } from "./included-tools.js";
import { validateSkillText } from "../skill-file/validate-skill.js";

const withTools = (value: string) => ({ metadata: { include_tools: value } });

describe("includedTools", () => {
  it("reads metadata.include_tools as deepagents does: space-separated, in order, each once", () => {
    expect(includedTools(withTools("  list_issues\tcreate_issue list_issues\n"))).toEqual([
      "list_issues",
      "create_issue",
    ]);
    expect(includedTools({ metadata: {} })).toEqual([]);
    expect(includedTools(withTools(""))).toEqual([]);
  });
});

describe("disclosedTools", () => {
  it("lists the loaded skills' tools in load order; a shared tool once, where it first appears", () => {
    expect(disclosedTools([withTools("b a"), withTools("c a"), { metadata: {} }, withTools("d")])).toEqual([
      "b",
      "a",
      "c",
      "d",
    ]);
    expect(disclosedTools([])).toEqual([]);
  });
});

describe("skillToolsNote", () => {
  it("says which tools come from the next step and which nobody supplies", () => {
    expect(skillToolsNote(["a", "b"], [])).toBe("Tools this skill brings, offered from your next step: a, b.");
    expect(skillToolsNote(["a", "b"], ["b"])).toBe(
      "Tools this skill brings, offered from your next step: a. Not available in this agent (nobody supplies them): b; do the task without them.",
    );
    expect(skillToolsNote(["b"], ["b"])).toBe(
      "Not available in this agent (nobody supplies them): b; do the task without them.",
    );
    expect(skillToolsNote([], [])).toBeUndefined();
  });

  it("refuses an undisclosed tool as one the agent does not have, saying when skill tools appear", () => {
    expect(undisclosedToolMessage("list_issues")).toBe(
      "Error: list_issues is not a valid tool here. Call only the tools you were given in this step; a skill's tools are offered from the step after the skill is loaded.",
    );
  });
});

describe("a metadata.include_tools that is not a string", () => {
  const text =
    "---\nname: gh\ndescription: Issues.\nmetadata:\n  include_tools:\n    - list_issues\n    - create_issue\n---\nBody\n";

  it("is a runtime warning naming the file, and the skill brings no tools", () => {
    const { skill, diagnostics } = inspectSkill({
      text,
      file: "/skills/gh/SKILL.md",
      source: "s",
      directoryName: "gh",
    });
    expect(skill!.metadata).toEqual({});
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        code: "field-type",
        file: "/skills/gh/SKILL.md",
        source: "s",
        skill: "gh",
        message:
          "Field 'metadata.include_tools' must be a space-separated string of tool names (e.g. 'list_issues create_issue'); it was ignored",
      },
    ]);
  });

  it("is a validation warning, not an error", () => {
    expect(validateSkillText(text, { directoryName: "gh" })).toEqual({
      valid: true,
      name: "gh",
      errors: [],
      warnings: [
        "Field 'metadata.include_tools' must be a space-separated string of tool names (e.g. 'list_issues create_issue'); runtimes ignore it.",
      ],
    });
  });
});
