import { describe, expect, it } from "vitest";
import { validateSkillText } from "./validate-skill.js";

const ONLY = "Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.";

function skill(frontmatter: string, body = "# Body\n"): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

function errorsOf(text: string, directoryName?: string): string[] {
  return validateSkillText(text, directoryName === undefined ? {} : { directoryName }).errors;
}

describe("validateSkillText: parsing (reference messages)", () => {
  it("accepts a minimal valid skill", () => {
    expect(validateSkillText(skill("name: my-skill\ndescription: Does things"), { directoryName: "my-skill" })).toEqual(
      {
        valid: true,
        name: "my-skill",
        errors: [],
        warnings: [],
      },
    );
  });

  it("requires the text to start with ---", () => {
    expect(errorsOf("# No frontmatter")).toEqual(["SKILL.md must start with YAML frontmatter (---)"]);
    expect(errorsOf("\n---\nname: a\n---\n")).toEqual(["SKILL.md must start with YAML frontmatter (---)"]);
  });

  it("rejects a byte-order mark, as the reference does", () => {
    expect(errorsOf("\ufeff" + skill("name: a\ndescription: b"))).toEqual([
      "SKILL.md must start with YAML frontmatter (---)",
    ]);
  });

  it("requires a closing ---", () => {
    expect(errorsOf("---\nname: a\ndescription: b\n")).toEqual(["SKILL.md frontmatter not properly closed with ---"]);
  });

  it("ends the frontmatter at the next --- anywhere, like Python's split('---', 2)", () => {
    // The description value is cut at "---", so the YAML seen is "name: a\ndescription: x".
    expect(validateSkillText("---\nname: a\ndescription: x---y\n---\nbody", { directoryName: "a" }).valid).toBe(true);
    expect(errorsOf("---\nname: a\ndescription: [x---]\n---\n")[0]).toMatch(/^Invalid YAML in frontmatter: /);
  });

  it("accepts CRLF line endings", () => {
    expect(errorsOf("---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n", "a")).toEqual([]);
  });

  it("reads every scalar as a string", () => {
    expect(errorsOf(skill("name: a\ndescription: 1.0\ncompatibility: true"), "a")).toEqual([]);
  });

  it.each([
    ["a flow sequence", "name: a\ndescription: [b]"],
    ["a flow mapping", "name: a\ndescription: b\nmetadata: {}"],
    ["an anchor", "name: &x a\ndescription: b"],
    ["an alias", "name: a\ndescription: &d b\nlicense: *d"],
    ["a tag", "name: !!str a\ndescription: b"],
    ["a duplicate key", "name: a\nname: b\ndescription: c"],
    ["broken syntax", "name: [invalid\ndescription: broken"],
  ])("rejects %s as invalid YAML", (_label, frontmatter) => {
    const errors = errorsOf(skill(frontmatter), "a");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Invalid YAML in frontmatter: \S/);
  });

  it("ends a YAML error with its line and column in the SKILL.md (the frontmatter starts on line 2)", () => {
    const unclosed =
      "Invalid YAML in frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 14";
    expect(errorsOf(skill("name: a\ndescription: [unclosed"), "a")).toEqual([unclosed]);
    expect(errorsOf("---\r\nname: a\r\ndescription: [unclosed\r\n---\r\n", "a")).toEqual([unclosed]);
    expect(errorsOf(skill("name: a\ndescription: b\nmetadata:\n  k: [v]"), "a")).toEqual([
      "Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 5, column 6",
    ]);
    // The reference ends the frontmatter at the first "---", which may be on the opening line.
    expect(errorsOf("---name: [a]\ndescription: b\n---\n", "a")).toEqual([
      "Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 1, column 10",
    ]);
  });

  it("requires a mapping", () => {
    expect(errorsOf(skill("- just\n- a\n- list"))).toEqual(["SKILL.md frontmatter must be a YAML mapping"]);
    expect(errorsOf(skill("just a string"))).toEqual(["SKILL.md frontmatter must be a YAML mapping"]);
    expect(errorsOf("---\n---\nbody")).toEqual(["SKILL.md frontmatter must be a YAML mapping"]);
  });
});

describe("validateSkillText: fields (reference rules, in order)", () => {
  it("lists unexpected fields sorted, with the allowed set", () => {
    expect(errorsOf(skill("name: a\ndescription: b\nzeta: 1\nargument-hint: x\nVersion: 2"), "a")).toEqual([
      `Unexpected fields in frontmatter: Version, argument-hint, zeta. ${ONLY}`,
    ]);
  });

  it("accepts every spec field", () => {
    const text = skill(
      "name: a\ndescription: b\nlicense: MIT\nallowed-tools: Read Bash(git:*)\nmetadata:\n  author: me\n  version: 1.0\ncompatibility: Node 20",
    );
    expect(errorsOf(text, "a")).toEqual([]);
  });

  it("reports missing name and description", () => {
    expect(errorsOf(skill("license: MIT"))).toEqual([
      "Missing required field in frontmatter: name",
      "Missing required field in frontmatter: description",
    ]);
  });

  it("requires non-empty strings", () => {
    expect(errorsOf(skill("name:\ndescription: '   '"))).toEqual([
      "Field 'name' must be a non-empty string",
      "Field 'description' must be a non-empty string",
    ]);
    expect(errorsOf(skill("name:\n  - a\ndescription:\n  k: v"))).toEqual([
      "Field 'name' must be a non-empty string",
      "Field 'description' must be a non-empty string",
    ]);
  });

  it("checks the name's length in code points after trimming and NFKC", () => {
    const long = "a".repeat(65);
    expect(errorsOf(skill(`name: ${long}\ndescription: b`))).toEqual([
      `Skill name '${long}' exceeds 64 character limit (65 chars)`,
    ]);
    expect(errorsOf(skill(`name: ${"日".repeat(64)}\ndescription: b`))).toEqual([]);
    expect(errorsOf(skill(`name: "  ${"a".repeat(64)}  "\ndescription: b`))).toEqual([]);
  });

  it("reports each name rule that applies", () => {
    expect(errorsOf(skill("name: -Bad--Name_\ndescription: b"))).toEqual([
      "Skill name '-Bad--Name_' must be lowercase",
      "Skill name cannot start or end with a hyphen",
      "Skill name cannot contain consecutive hyphens",
      "Skill name '-Bad--Name_' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ]);
    expect(errorsOf(skill("name: a-\ndescription: b"))).toEqual(["Skill name cannot start or end with a hyphen"]);
    expect(errorsOf(skill("name: my skill\ndescription: b"))).toEqual([
      "Skill name 'my skill' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ]);
  });

  it("allows any Unicode letter or digit", () => {
    expect(errorsOf(skill("name: 技能\ndescription: b"), "技能")).toEqual([]);
    expect(errorsOf(skill("name: мой-навык\ndescription: b"), "мой-навык")).toEqual([]);
    expect(errorsOf(skill("name: Навык\ndescription: b"))).toEqual(["Skill name 'Навык' must be lowercase"]);
    expect(errorsOf(skill("name: a٣\ndescription: b"))).toEqual([]);
  });

  it("normalises with NFKC before checking and comparing to the folder", () => {
    // "ｍｙ" (fullwidth) becomes "my"; the decomposed "café" becomes the composed one.
    expect(errorsOf(skill("name: ｍｙ-skill\ndescription: b"), "my-skill")).toEqual([]);
    expect(errorsOf(skill("name: cafe\u0301\ndescription: b"), "caf\u00e9")).toEqual([]);
    expect(errorsOf(skill("name: caf\u00e9\ndescription: b"), "cafe\u0301")).toEqual([]);
  });

  it("requires the folder name to match", () => {
    expect(errorsOf(skill("name: my-skill\ndescription: b"), "other")).toEqual([
      "Directory name 'other' must match skill name 'my-skill'",
    ]);
  });

  it("measures the description untrimmed, in code points", () => {
    expect(errorsOf(skill(`name: a\ndescription: "${"x".repeat(1024)}"`))).toEqual([]);
    expect(errorsOf(skill(`name: a\ndescription: "${"x".repeat(1024)} "`))).toEqual([
      "Description exceeds 1024 character limit (1025 chars)",
    ]);
    expect(errorsOf(skill(`name: a\ndescription: ${"😀".repeat(1024)}`))).toEqual([]);
  });

  it("checks compatibility when present", () => {
    expect(errorsOf(skill(`name: a\ndescription: b\ncompatibility: ${"c".repeat(501)}`))).toEqual([
      "Compatibility exceeds 500 character limit (501 chars)",
    ]);
    expect(errorsOf(skill("name: a\ndescription: b\ncompatibility:\n  - x"))).toEqual([
      "Field 'compatibility' must be a string",
    ]);
    expect(errorsOf(skill("name: a\ndescription: b\ncompatibility:"))).toEqual([]);
  });

  it("collects errors from every rule in the reference's order", () => {
    expect(
      errorsOf(
        skill(`name: Bad\nextra: 1\ndescription: ${"d".repeat(1025)}\ncompatibility: ${"c".repeat(501)}`),
        "dir",
      ),
    ).toEqual([
      `Unexpected fields in frontmatter: extra. ${ONLY}`,
      "Skill name 'Bad' must be lowercase",
      "Directory name 'dir' must match skill name 'Bad'",
      "Description exceeds 1024 character limit (1025 chars)",
      "Compatibility exceeds 500 character limit (501 chars)",
    ]);
  });

  it("accepts Claude Code fields only when asked, and warns about them", () => {
    const text = skill("name: a\ndescription: b\nargument-hint: '[file]'\ndisable-model-invocation: true");
    expect(validateSkillText(text).errors).toEqual([
      `Unexpected fields in frontmatter: argument-hint, disable-model-invocation. ${ONLY}`,
    ]);
    expect(validateSkillText(text, { allowClaudeCodeFields: true })).toEqual({
      valid: true,
      name: "a",
      errors: [],
      warnings: [
        "Claude Code fields accepted: argument-hint, disable-model-invocation. Other Agent Skills clients ignore or reject them.",
      ],
    });
  });

  it("reads Claude Code's fields in flow style when accepting them (`arguments: [pr, priority]`), and only those", () => {
    const text = skill(
      "name: a\ndescription: b\narguments: [pr, priority]\nhooks:\n  Stop: [{hooks: [{type: command, command: scripts/check.sh}]}]",
    );
    expect(validateSkillText(text, { directoryName: "a" })).toEqual({
      valid: false,
      name: null,
      errors: [
        "Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 4, column 12",
      ],
      warnings: [],
    });
    expect(validateSkillText(text, { directoryName: "a", allowClaudeCodeFields: true })).toEqual({
      valid: true,
      name: "a",
      errors: [],
      warnings: ["Claude Code fields accepted: arguments, hooks. Other Agent Skills clients ignore or reject them."],
    });
    const refused = (frontmatter: string) =>
      validateSkillText(skill(`name: a\ndescription: b\narguments: [pr]\n${frontmatter}`), {
        allowClaudeCodeFields: true,
      }).errors;
    // The specification's fields, a nested key of the same name, anchors and tags stay strict.
    expect(refused("allowed-tools: [Read, Grep]")).toEqual([
      "Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 5, column 16",
    ]);
    expect(refused("metadata:\n  arguments: [x]")).toEqual([
      "Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 6, column 14",
    ]);
    expect(refused("model: &m opus")).toEqual([
      "Invalid YAML in frontmatter: anchors are not allowed (&m) at line 5, column 8",
    ]);
    expect(refused("hooks: [!!str a]")).toEqual([
      "Invalid YAML in frontmatter: tags are not allowed (tag:yaml.org,2002:str) at line 5, column 9",
    ]);
  });
});

describe("validateSkillText: metadata.entrypoint (warnings: the reference passes these skills)", () => {
  const validate = (metadata: string) =>
    validateSkillText(`---\nname: demo\ndescription: Use demo.\nmetadata:\n${metadata}---\n`, {
      directoryName: "demo",
    });

  it.each([
    ["  entrypoint: src/index.ts\n", []],
    [
      "  entrypoint: lib/run.py\n",
      [
        "metadata.entrypoint 'lib/run.py' cannot be used: '.py' files cannot be imported; the module must end in .js, .mjs, .ts, .mts. Runtimes ignore it.",
      ],
    ],
    [
      "  entrypoint:\n    - a.js\n",
      [
        "Field 'metadata.entrypoint' must be a path to a .js, .mjs, .ts or .mts file in the skill's folder; runtimes ignore it.",
      ],
    ],
  ])("%j", (metadata, warnings) => {
    expect(validate(metadata)).toEqual({ valid: true, name: "demo", errors: [], warnings });
  });
});
