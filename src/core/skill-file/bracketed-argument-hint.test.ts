import { describe, expect, it } from "vitest";
import { quoteBracketedArgumentHint } from "./bracketed-argument-hint.js";
import { validateSkillText } from "./validate-skill.js";

const ONLY = "Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.";
const skill = (hintLine: string) => `---\nname: demo\ndescription: d\n${hintLine}\n---\nBody\n`;

describe("quoteBracketedArgumentHint", () => {
  it("quotes the value of a one-line bracketed argument-hint and returns it as written", () => {
    expect(quoteBracketedArgumentHint(skill("argument-hint: [pr-number] [priority]"))).toEqual({
      text: skill('argument-hint: "[pr-number] [priority]"'),
      hint: "[pr-number] [priority]",
      message: `'argument-hint: [pr-number] [priority]' was read as the text '[pr-number] [priority]'; YAML reads it as a list or not at all, so quote it: argument-hint: "[pr-number] [priority]"`,
    });
  });

  it.each([
    ["a quoted hint", "argument-hint: '[file]'"],
    ["a hint without brackets", "argument-hint: file"],
    ["an unclosed bracket", "argument-hint: [file"],
    ["a flow list over several lines", "argument-hint: [a,\n  b]"],
    ["an indented key", "metadata:\n  argument-hint: [file]"],
  ])("leaves %s alone", (_what, line) => {
    expect(quoteBracketedArgumentHint(skill(line))).toBeUndefined();
  });

  it("looks only in the frontmatter", () => {
    expect(quoteBracketedArgumentHint("---\nname: demo\n---\nargument-hint: [file]\n")).toBeUndefined();
    expect(quoteBracketedArgumentHint("argument-hint: [file]\n")).toBeUndefined();
  });
});

describe("validate and a bracketed argument-hint", () => {
  it.each(["[file]", "[pr-number] [priority]"])(
    "keeps the reference's verdict for `argument-hint: %s` without the Claude Code option",
    (hint) => {
      const report = validateSkillText(skill(`argument-hint: ${hint}`), { directoryName: "demo" });
      expect(report.valid).toBe(false);
      expect(report.errors).toHaveLength(1);
      expect(report.errors[0]).toMatch(/^Invalid YAML in frontmatter: /);
    },
  );

  it.each(["[file]", "[pr-number] [priority]"])(
    "with allowClaudeCodeFields accepts `argument-hint: %s` as the text written, with warnings",
    (hint) => {
      expect(
        validateSkillText(skill(`argument-hint: ${hint}`), { directoryName: "demo", allowClaudeCodeFields: true }),
      ).toEqual({
        valid: true,
        name: "demo",
        errors: [],
        warnings: [
          `'argument-hint: ${hint}' was read as the text '${hint}'; YAML reads it as a list or not at all, so quote it: argument-hint: "${hint}"`,
          "Claude Code fields accepted: argument-hint. Other Agent Skills clients ignore or reject them.",
        ],
      });
    },
  );

  it("with allowClaudeCodeFields still reports the other problems of the file", () => {
    expect(
      validateSkillText(skill("argument-hint: [file]\nversion: 1"), {
        directoryName: "demo",
        allowClaudeCodeFields: true,
      }).errors,
    ).toEqual([`Unexpected fields in frontmatter: version. ${ONLY}`]);
  });
});
