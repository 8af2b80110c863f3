// A skill's module (`metadata.entrypoint`) as validate, list, info and doctor report it: the
// exports of a sound module, and each problem of a module that cannot be imported.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fields, parseJson, useCliRun, writeSkill } from "./helpers.js";

const { tempDir, run } = useCliRun();
const FIXTURES = fileURLToPath(new URL("../__fixtures__/module-skills", import.meta.url));

/** A skills folder with one skill, `calc`, whose `metadata.entrypoint` is `entrypoint` and whose files are `files`. */
function moduleSkill(entrypoint: string, files: Record<string, string>): { source: string; skill: string } {
  const source = tempDir();
  const skill = writeSkill(source, "calc", [
    ...fields("calc", "Totals numbers. Use when the user asks for a sum."),
    "metadata:",
    `  entrypoint: ${entrypoint}`,
  ]);
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(skill, relative)), { recursive: true });
    writeFileSync(path.join(skill, relative), content);
  }
  return { source, skill };
}

interface ValidateJson {
  skills: Array<{ valid: boolean; errors: string[]; warnings: string[] }>;
}

describe("a sound module", () => {
  it("validate passes it without warnings", async () => {
    const result = await run(["validate", path.join(FIXTURES, "table-totals"), "--json"]);
    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout).skills[0]).toMatchObject({ valid: true, errors: [], warnings: [] });
  });

  it("info lists its exports: signatures with their TypeScript types and the first TSDoc sentence", async () => {
    const result = await run(["info", "table-totals", FIXTURES]);
    expect(result.code).toBe(0);
    expect(result.stdout.slice(result.stdout.indexOf("Module"))).toBe(
      [
        "Module src/index.ts",
        "  total(rows: Row[], column: string, options: TotalOptions = {}): number — Totals a column of rows.",
        "  countFilled(rows: Row[], column: string): number — Counts the rows whose cell in `column` is not blank.",
        "  MAX_ROWS (constant) — Most rows a call should pass; more are cut.",
        "  isBlank from ./row.js (re-export)",
        "",
      ].join("\n"),
    );
    const json = parseJson<{ module: unknown }>((await run(["info", "table-totals", FIXTURES, "--json"])).stdout);
    expect(json.module).toEqual({
      entrypoint: "src/index.ts",
      path: "src/index.ts",
      exports: [
        {
          name: "total",
          kind: "function",
          signature: "total(rows: Row[], column: string, options: TotalOptions = {}): number",
          summary: "Totals a column of rows.",
        },
        {
          name: "countFilled",
          kind: "function",
          signature: "countFilled(rows: Row[], column: string): number",
          summary: "Counts the rows whose cell in `column` is not blank.",
        },
        { name: "MAX_ROWS", kind: "constant", summary: "Most rows a call should pass; more are cut." },
        { name: "isBlank", kind: "re-export", from: "./row.js" },
      ],
    });
  });

  it("list shows the entrypoint in a MODULE column; doctor finds nothing", async () => {
    const list = await run(["list", FIXTURES]);
    expect(list.stdout.split("\n")[0]).toMatch(/^NAME {10}STATUS {4}MODULE {8}PATH/);
    expect(list.stdout.split("\n")[1]).toMatch(/^table-totals {2}ok {8}src\/index\.ts {2}/);
    const doctor = await run(["doctor", FIXTURES, "--no-threads", "--json"]);
    expect(doctor.code).toBe(0);
    expect(parseJson<{ findings: unknown[] }>(doctor.stdout).findings).toEqual([]);
  });
});

// Each problem: the skill, what validate warns (the reference validator passes these skills, so
// they stay valid), and the code list, info and doctor report.
const PROBLEMS: Array<{
  case: string;
  entrypoint: string;
  files: Record<string, string>;
  link?: boolean;
  warning: string;
  code: string;
}> = [
  {
    case: "missing file",
    entrypoint: "src/index.ts",
    files: {},
    warning: "metadata.entrypoint: src/index.ts does not exist in the skill's folder",
    code: "entrypoint-missing",
  },
  {
    case: "a link that leads out of the skill",
    entrypoint: "src/index.js",
    files: {},
    link: true,
    warning: "metadata.entrypoint: src/index.js resolves outside the skill's folder; refused",
    code: "entrypoint-outside",
  },
  {
    case: "syntax error (TypeScript)",
    entrypoint: "src/index.ts",
    files: { "src/index.ts": "export const a = 1;\nexport function f(x: number {\n}\n" },
    warning: 'Syntax error in src/index.ts:2:29: Unexpected token, expected ","',
    code: "module-syntax",
  },
  {
    case: "syntax error (JavaScript)",
    entrypoint: "index.mjs",
    files: { "index.mjs": "export const a = 1;\nexport const b = ;\n" },
    warning: "Syntax error in index.mjs:2:18: Unexpected token",
    code: "module-syntax",
  },
  {
    case: "a path outside the skill",
    entrypoint: "../shared/index.js",
    files: {},
    warning:
      "metadata.entrypoint '../shared/index.js' cannot be used: '..' is not allowed; the module must be inside the skill's folder. Runtimes ignore it.",
    code: "entrypoint-invalid",
  },
  {
    case: "wrong extension",
    entrypoint: "scripts/calc.py",
    files: { "scripts/calc.py": "print(1)\n" },
    warning:
      "metadata.entrypoint 'scripts/calc.py' cannot be used: '.py' files cannot be imported; the module must end in .js, .mjs, .ts, .mts. Runtimes ignore it.",
    code: "entrypoint-invalid",
  },
];

describe.each(PROBLEMS)("a module with a problem: $case", (problem) => {
  const setUp = () => {
    const made = moduleSkill(problem.entrypoint, problem.files);
    if (problem.link) {
      const outside = path.join(tempDir(), "index.js");
      writeFileSync(outside, "export const x = 1;\n");
      mkdirSync(path.join(made.skill, "src"), { recursive: true });
      symlinkSync(outside, path.join(made.skill, "src/index.js"));
    }
    return made;
  };
  const message = problem.warning.replace(/\. Runtimes ignore it\.$/, "");

  it("validate: a warning, and the skill stays valid (as the reference validator has it)", async () => {
    const { skill } = setUp();
    const result = await run(["validate", skill, "--json"]);
    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout).skills[0]).toMatchObject({
      valid: true,
      errors: [],
      warnings: [problem.warning],
    });
  });

  it("list: the skill has a warning naming the problem", async () => {
    const { source, skill } = setUp();
    const result = await run(["list", source, "--json"]);
    const rows = parseJson<{ skills: Array<Record<string, unknown>> }>(result.stdout).skills;
    expect(rows).toEqual([
      expect.objectContaining({
        name: "calc",
        status: "warning",
        entrypoint: problem.entrypoint,
        diagnostics: [
          {
            severity: "warning",
            code: problem.code,
            file: path.join(skill, "SKILL.md"),
            message,
            skill: "calc",
            source: `local:${source}`,
          },
        ],
      }),
    ]);
  });

  it("info: the module cannot be imported, and why", async () => {
    const { source } = setUp();
    const result = await run(["info", "calc", source]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `\nModule ${problem.entrypoint.replace(/^\.\//, "")}\n  cannot be imported: ${message}\n`,
    );
  });

  it("doctor: an error finding with the problem's code", async () => {
    const { source, skill } = setUp();
    const result = await run(["doctor", source, "--no-threads", "--json"]);
    expect(result.code).toBe(1);
    const findings = parseJson<{ findings: Array<Record<string, unknown>> }>(result.stdout).findings;
    expect(findings.filter((finding) => finding.severity === "error")).toEqual([
      expect.objectContaining({
        code: problem.code,
        skill: "calc",
        file: path.join(skill, "SKILL.md"),
        message: `The module of 'calc' cannot be imported: ${message}`,
      }),
    ]);
  });
});

describe("validate and the reference validator", () => {
  it("a skill the reference rejects keeps its errors; the module's problem is a warning beside them", async () => {
    const source = tempDir();
    const skill = writeSkill(source, "calc", [
      ...fields("other-name", "Totals."),
      "metadata:",
      "  entrypoint: index.js",
    ]);
    const result = await run(["validate", skill, "--json"]);
    expect(result.code).toBe(1);
    expect(parseJson<ValidateJson>(result.stdout).skills[0]).toMatchObject({
      valid: false,
      errors: ["Directory name 'calc' must match skill name 'other-name'"],
      warnings: ["metadata.entrypoint: index.js does not exist in the skill's folder"],
    });
  });

  it("an entrypoint that is not a string is a warning", async () => {
    const source = tempDir();
    const skill = writeSkill(source, "calc", [
      ...fields("calc", "Totals."),
      "metadata:",
      "  entrypoint:",
      "    - index.js",
    ]);
    const result = await run(["validate", skill, "--json"]);
    expect(parseJson<ValidateJson>(result.stdout).skills[0]).toMatchObject({
      valid: true,
      warnings: [
        "Field 'metadata.entrypoint' must be a path to a .js, .mjs, .ts or .mts file in the skill's folder; runtimes ignore it.",
      ],
    });
  });
});
