import { describe, expect, it } from "vitest";
import { inspectSkill } from "./inspect-skill.js";

const file = "/skills/demo/SKILL.md";
const inspect = (text: string, directoryName = "demo") => inspectSkill({ text, file, directoryName, source: "test" });

describe("inspectSkill: lenient loading (decision 8)", () => {
  it("reads a clean skill without diagnostics", () => {
    const { skill, diagnostics } = inspect("---\nname: demo\ndescription: Does demo things\nlicense: MIT\n---\nBody");
    expect(diagnostics).toEqual([]);
    expect(skill).toEqual({
      name: "demo",
      description: "Does demo things",
      path: file,
      license: "MIT",
      metadata: {},
      allowedTools: [],
      source: "test",
    });
  });

  it("skips unparseable frontmatter with an error naming the file", () => {
    expect(inspect("no frontmatter")).toEqual({
      diagnostics: [
        {
          severity: "error",
          code: "frontmatter-missing",
          file,
          source: "test",
          message: "SKILL.md must start with YAML frontmatter (---)",
        },
      ],
    });
    expect(inspect("---\nname: demo\n").diagnostics[0]).toMatchObject({
      severity: "error",
      code: "frontmatter-unclosed",
    });
    expect(inspect("---\nname: demo\ndescription: d\n\tx: y\n---\n").diagnostics[0]).toMatchObject({
      severity: "error",
      code: "invalid-yaml",
    });
  });

  it("names the line and column in the SKILL.md of a YAML error, also when it repairs the value", () => {
    expect(inspect('---\nname: demo\ndescription: "unclosed\n---\n').diagnostics).toEqual([
      {
        severity: "error",
        code: "invalid-yaml",
        file,
        source: "test",
        message: 'Invalid YAML in frontmatter: Missing closing "quote at line 3, column 14',
      },
    ]);
    expect(inspect("---\nname: demo\ndescription: [unclosed\n---\n").diagnostics).toEqual([
      {
        severity: "warning",
        code: "yaml-repaired",
        file,
        source: "test",
        message:
          "Invalid YAML in frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 14; read after quoting the values that are not valid YAML",
      },
    ]);
  });

  it("skips a skill without a description", () => {
    const result = inspect("---\nname: demo\n---\nBody");
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        severity: "error",
        code: "description-missing",
        file,
        source: "test",
        skill: "demo",
        message: "Missing required field in frontmatter: description",
      },
    ]);
    expect(inspect("---\nname: demo\ndescription: '  '\n---\n").diagnostics[0]!.message).toBe(
      "Field 'description' must be a non-empty string",
    );
  });

  it("skips a skill without a name", () => {
    expect(inspect("---\ndescription: d\n---\n").diagnostics).toEqual([
      {
        severity: "error",
        code: "name-missing",
        file,
        source: "test",
        message: "Missing required field in frontmatter: name",
      },
    ]);
  });

  it("skips names that could inject markup or break tool calls", () => {
    for (const name of ["'<b>x</b>'", "'a b'", '"a\\nb"', "'../etc'"]) {
      const result = inspect(`---\nname: ${name}\ndescription: d\n---\n`);
      expect(result.skill).toBeUndefined();
      expect(result.diagnostics[0]).toMatchObject({ severity: "error", code: "name-unsafe" });
    }
  });

  it("loads cosmetic problems with warnings in the reference's words", () => {
    const long = "d".repeat(1100);
    const result = inspect(`---\nname: Other_Name\ndescription: ${long}\nversion: 2\n---\n`);
    expect(result.skill?.name).toBe("Other_Name");
    expect(result.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ["warning", expect.stringMatching(/^Unexpected fields in frontmatter: version\. /)],
      ["warning", "Skill name 'Other_Name' must be lowercase"],
      [
        "warning",
        "Skill name 'Other_Name' contains invalid characters. Only letters, digits, and hyphens are allowed.",
      ],
      ["warning", "Directory name 'demo' must match skill name 'Other_Name'"],
      ["warning", "Description exceeds 1024 character limit (1100 chars)"],
    ]);
  });

  it("accepts flow lists and repairs unquoted colons, with a warning", () => {
    const result = inspect(
      "---\nname: demo\ndescription: Use this skill when: the user asks about PDFs\nallowed-tools: [Read, Bash]\n---\n",
    );
    expect(result.skill?.description).toBe("Use this skill when: the user asks about PDFs");
    expect(result.skill?.allowedTools).toEqual(["Read", "Bash"]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "yaml-repaired",
        message: expect.stringMatching(
          /^Invalid YAML in frontmatter: .*; read after quoting the values that are not valid YAML$/,
        ),
      }),
    ]);
  });

  it("strips a byte-order mark with a warning", () => {
    const result = inspect("\ufeff---\nname: demo\ndescription: d\n---\n");
    expect(result.skill?.name).toBe("demo");
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: "warning", code: "byte-order-mark" })]);
  });

  it("types Claude Code fields", () => {
    const { skill, diagnostics } = inspect(
      "---\nname: demo\ndescription: d\nargument-hint: '[file] [mode]'\ndisable-model-invocation: true\nuser-invocable: False\nmodel: opus\ncontext: fork\nagent: Explore\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\n",
    );
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({
      argumentHint: "[file] [mode]",
      disableModelInvocation: true,
      userInvocable: false,
      model: "opus",
      context: "fork",
      agent: "Explore",
      hooks: { PreToolUse: [{ matcher: "Bash" }] },
    });
  });

  it.each([
    { written: "[file] [mode]", hint: "[file] [mode]" },
    { written: "[pr-number] [priority]", hint: "[pr-number] [priority]" },
    { written: "[file]", hint: "[file]" },
    { written: "[ file ]", hint: "[ file ]" },
    { written: "[a, b]  # two of them", hint: "[a, b]" },
  ])(
    "reads Claude Code's unquoted `argument-hint: $written` as the text written, with a warning",
    ({ written, hint }) => {
      const { skill, diagnostics } = inspect(`---\nname: demo\ndescription: d\nargument-hint: ${written}\n---\n`);
      expect(skill?.argumentHint).toBe(hint);
      expect(diagnostics).toEqual([
        {
          severity: "warning",
          code: "argument-hint-text",
          file,
          source: "test",
          message: `'argument-hint: ${hint}' was read as the text '${hint}'; YAML reads it as a list or not at all, so quote it: argument-hint: "${hint}"`,
        },
      ]);
    },
  );

  it("reads a bracketed argument-hint in a CRLF file and leaves the other fields as they are", () => {
    const { skill, diagnostics } = inspect(
      "---\r\nname: demo\r\nargument-hint: [file]\r\ndescription: Use when: x\r\n---\r\nBody",
    );
    expect(skill).toMatchObject({ name: "demo", argumentHint: "[file]", description: "Use when: x" });
    expect(diagnostics.map((d) => d.code)).toEqual(["argument-hint-text", "yaml-repaired"]);
  });

  it("reads Claude Code's `arguments` as a list or a space-separated string of names", () => {
    expect(
      inspect("---\nname: demo\ndescription: d\narguments: [issue, priority]\n---\n").skill!.argumentNames,
    ).toEqual(["issue", "priority"]);
    expect(inspect("---\nname: demo\ndescription: d\narguments: issue priority\n---\n").skill!.argumentNames).toEqual([
      "issue",
      "priority",
    ]);
    const bad = inspect("---\nname: demo\ndescription: d\narguments: [a-b]\n---\n");
    expect(bad.skill!.argumentNames).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.message)).toEqual([
      "Field 'arguments' must be a list of names (letters, digits, '_') or a space-separated string of them; it was ignored",
    ]);
  });

  it("ignores mistyped optional fields with a warning", () => {
    const { skill, diagnostics } = inspect(
      "---\nname: demo\ndescription: d\nlicense:\n  - MIT\nuser-invocable: maybe\nmetadata:\n  ok: yes\n  nested:\n    a: b\n---\n",
    );
    expect(skill?.license).toBeUndefined();
    expect(skill?.userInvocable).toBeUndefined();
    expect(skill?.metadata).toEqual({ ok: "yes" });
    expect(diagnostics.map((d) => d.message)).toEqual([
      "Field 'license' must be a string; it was ignored",
      "Field 'user-invocable' must be true or false; it was ignored",
      "Field 'metadata.nested' must be a string; it was ignored",
    ]);
  });

  it("keeps numbers in metadata as written", () => {
    expect(inspect("---\nname: demo\ndescription: d\nmetadata:\n  version: 1.10\n---\n").skill?.metadata).toEqual({
      version: "1.10",
    });
  });

  it("does not let a --- inside a value end the frontmatter", () => {
    expect(inspect("---\nname: demo\ndescription: before --- after\n---\n").skill?.description).toBe(
      "before --- after",
    );
  });

  it("bounds YAML alias expansion", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(", ")}]`,
      ),
    ].join("\n");
    const result = inspect(`---\nname: demo\ndescription: d\n${bomb}\n---\n`);
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics[0]).toMatchObject({ severity: "error", code: "invalid-yaml" });
  });
});

describe("inspectSkill: metadata.entrypoint", () => {
  const withEntrypoint = (value: string) =>
    inspect(`---\nname: demo\ndescription: Use demo.\nmetadata:\n  entrypoint: ${value}\n---\n`);

  it("a usable path loads quietly; the skill keeps it in its metadata", () => {
    expect(withEntrypoint("src/index.ts")).toMatchObject({
      skill: { metadata: { entrypoint: "src/index.ts" } },
      diagnostics: [],
    });
  });

  it("a path that breaks the rules: the skill loads, with a warning that says why", () => {
    expect(withEntrypoint("../shared/index.js").diagnostics).toEqual([
      {
        severity: "warning",
        code: "entrypoint-invalid",
        file,
        message:
          "metadata.entrypoint '../shared/index.js' cannot be used: '..' is not allowed; the module must be inside the skill's folder",
        skill: "demo",
        source: "test",
      },
    ]);
  });
});
