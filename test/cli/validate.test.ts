// `skillset validate` end to end: the BUILT binary (dist/cli/main.js, from `npm run build`) as a
// real Node process against real temporary folders, as every test in test/cli/.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run-cli.js";
import { fields, parseJson, useCliRun, writeSkill, type ValidateJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("skillset validate", () => {
  it("accepts a valid skill: exit 0, stdout names the folder and the skill, stderr empty", async () => {
    const dir = tempDir();
    const skill = writeSkill(dir, "good", fields("good", "A good skill."));

    const result = await run(["validate", skill]);

    expect(result).toEqual({ code: 0, stdout: `✓ ${skill} (good)\n1 skill checked: 1 valid, 0 invalid\n`, stderr: "" });
  });

  it("rejects an invalid skill: exit 1, the reference message in the report on stdout, stderr empty", async () => {
    const dir = tempDir();
    const skill = writeSkill(dir, "Bad", fields("Bad", "Uppercase name."));

    const result = await run(["validate", skill]);

    expect(result).toEqual({
      code: 1,
      stdout: `✗ ${skill} (Bad)\n  error: Skill name 'Bad' must be lowercase\n1 skill checked: 0 valid, 1 invalid\n`,
      stderr: "",
    });
  });

  it("-r over valid and invalid skills prints the whole report on stdout, in order, and nothing on stderr", async () => {
    const cwd = tempDir();
    writeSkill(path.join(cwd, "bad"), "Bad", fields("Bad", "Uppercase name."));
    writeSkill(path.join(cwd, "bad"), "good", fields("good", "Fine."));
    writeSkill(path.join(cwd, "bad"), "warned", [...fields("warned", "Has a hint."), "argument-hint: x"]);

    const result = await run(["validate", "-r", "--allow-claude-code-fields", "bad"], { cwd });

    expect(result).toEqual({
      code: 1,
      stdout:
        "✗ bad/Bad (Bad)\n  error: Skill name 'Bad' must be lowercase\n" +
        "✓ bad/good (good)\n" +
        "✓ bad/warned (warned)\n  warning: Claude Code fields accepted: argument-hint. Other Agent Skills clients ignore or reject them.\n" +
        "3 skills checked: 2 valid, 1 invalid\n",
      stderr: "",
    });
  });

  it("with no path validates the current folder", async () => {
    const skill = writeSkill(tempDir(), "here", fields("here", "In the working folder."));

    const result = await run(["validate", "--json"], { cwd: skill });

    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout)).toEqual({
      skills: [{ path: ".", name: "here", valid: true, errors: [], warnings: [] }],
      valid: true,
    });
  });

  it("--json prints exactly {skills:[{path,name,valid,errors,warnings}],valid} on stdout", async () => {
    const dir = tempDir();
    const good = writeSkill(dir, "good", fields("good", "A good skill."));
    const bad = writeSkill(dir, "Bad", fields("Bad", "Uppercase name."));

    const result = await run(["validate", "--json", good, bad]);

    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const report = parseJson<ValidateJson>(result.stdout);
    expect(Object.keys(report).sort()).toEqual(["skills", "valid"]);
    for (const entry of report.skills)
      expect(Object.keys(entry).sort()).toEqual(["errors", "name", "path", "valid", "warnings"]);
    expect(report).toEqual({
      skills: [
        { path: good, name: "good", valid: true, errors: [], warnings: [] },
        { path: bad, name: "Bad", valid: false, errors: ["Skill name 'Bad' must be lowercase"], warnings: [] },
      ],
      valid: false,
    });
  });

  it("--json of only valid skills reports valid: true and exits 0", async () => {
    const skill = writeSkill(tempDir(), "fine", fields("fine", "Fine."));

    const result = await run(["validate", skill, "--json"]);

    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout)).toEqual({
      skills: [{ path: skill, name: "fine", valid: true, errors: [], warnings: [] }],
      valid: true,
    });
  });

  it("a path to a SKILL.md file means its folder", async () => {
    const skill = writeSkill(tempDir(), "by-file", fields("by-file", "Given by its SKILL.md."));

    const result = await run(["validate", "--json", path.join(skill, "SKILL.md")]);

    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout)).toEqual({
      skills: [{ path: skill, name: "by-file", valid: true, errors: [], warnings: [] }],
      valid: true,
    });
  });

  it("--recursive finds nested and hidden skill folders at any depth and skips node_modules", async () => {
    const dir = tempDir();
    writeSkill(dir, "top", fields("top", "At the top."));
    writeSkill(path.join(dir, ".system"), "x", fields("x", "In a hidden folder."));
    writeSkill(path.join(dir, "deep", "er", "still"), "nest", fields("nest", "Four levels down."));
    // Invalid on purpose: if node_modules were searched, the report would not be valid.
    writeSkill(path.join(dir, "node_modules"), "pkg", fields("Not-Valid", "Inside node_modules."));
    writeSkill(path.join(dir, "deep", "node_modules"), "pkg", fields("Not-Valid", "Nested node_modules."));

    const result = await run(["validate", "--recursive", "--json", dir]);

    expect(result.code).toBe(0);
    expect(parseJson<ValidateJson>(result.stdout)).toEqual({
      skills: [
        { path: path.join(dir, ".system", "x"), name: "x", valid: true, errors: [], warnings: [] },
        { path: path.join(dir, "deep", "er", "still", "nest"), name: "nest", valid: true, errors: [], warnings: [] },
        { path: path.join(dir, "top"), name: "top", valid: true, errors: [], warnings: [] },
      ],
      valid: true,
    });
  });

  it("--recursive reports invalid skills found below the folder and exits 1", async () => {
    const dir = tempDir();
    writeSkill(dir, "ok-one", fields("ok-one", "Fine."));
    writeSkill(path.join(dir, "group"), "wrong", fields("right", "Name differs from folder."));

    const result = await run(["validate", "-r", "--json", dir]);

    expect(result.code).toBe(1);
    expect(parseJson<ValidateJson>(result.stdout)).toEqual({
      skills: [
        {
          path: path.join(dir, "group", "wrong"),
          name: "right",
          valid: false,
          errors: ["Directory name 'wrong' must match skill name 'right'"],
          warnings: [],
        },
        { path: path.join(dir, "ok-one"), name: "ok-one", valid: true, errors: [], warnings: [] },
      ],
      valid: false,
    });
  });

  it("--recursive on a folder with no skills exits 1 with an error naming the folder", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "empty", "deeper"), { recursive: true });

    const result = await run(["validate", "--recursive", dir]);

    expect(result).toEqual({
      code: 1,
      stdout: `✗ ${dir}\n  error: No SKILL.md found in ${dir} or any folder below it\n1 skill checked: 0 valid, 1 invalid\n`,
      stderr: "",
    });
  });

  it.each([
    {
      what: "a path that does not exist",
      make: (dir: string) => path.join(dir, "missing"),
      message: (target: string) => `Path does not exist: ${target}`,
    },
    {
      what: "a file that is not SKILL.md",
      make: (dir: string) => {
        const file = path.join(dir, "notes.txt");
        writeFileSync(file, "hello\n");
        return file;
      },
      message: (target: string) => `Not a directory: ${target}`,
    },
    {
      what: "a folder without SKILL.md",
      make: (dir: string) => {
        const folder = path.join(dir, "no-skill");
        mkdirSync(folder);
        writeFileSync(path.join(folder, "README.md"), "# not a skill\n");
        return folder;
      },
      message: () => "Missing required file: SKILL.md",
    },
  ])("reports $what: exit 1 with the reference message", async ({ make, message }) => {
    const target = make(tempDir());

    const [human, json] = await Promise.all([run(["validate", target]), run(["validate", "--json", target])]);

    expect(human).toEqual({
      code: 1,
      stdout: `✗ ${target}\n  error: ${message(target)}\n1 skill checked: 0 valid, 1 invalid\n`,
      stderr: "",
    });
    expect(json.code).toBe(1);
    expect(parseJson<ValidateJson>(json.stdout)).toEqual({
      skills: [{ path: target, name: null, valid: false, errors: [message(target)], warnings: [] }],
      valid: false,
    });
  });

  it("an unknown option is a usage error: exit 2, one `skillset:` line on stderr naming the command's help", async () => {
    const result = await run(["validate", "--bogus"]);

    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: unknown option '--bogus' (see `skillset validate --help`)\n",
    });
  });

  it("--allow-claude-code-fields turns argument-hint from an error into a warning", async () => {
    const skill = writeSkill(tempDir(), "hinted", [
      ...fields("hinted", "Takes an argument."),
      'argument-hint: "[file]"',
    ]);

    const [strict, allowed] = await Promise.all([
      run(["validate", "--json", skill]),
      run(["validate", "--json", "--allow-claude-code-fields", skill]),
    ]);

    expect(strict.code).toBe(1);
    expect(parseJson<ValidateJson>(strict.stdout)).toEqual({
      skills: [
        {
          path: skill,
          name: "hinted",
          valid: false,
          errors: [
            "Unexpected fields in frontmatter: argument-hint. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
          ],
          warnings: [],
        },
      ],
      valid: false,
    });
    expect(allowed.code).toBe(0);
    expect(parseJson<ValidateJson>(allowed.stdout)).toEqual({
      skills: [
        {
          path: skill,
          name: "hinted",
          valid: true,
          errors: [],
          warnings: ["Claude Code fields accepted: argument-hint. Other Agent Skills clients ignore or reject them."],
        },
      ],
      valid: true,
    });
  });

  it("--allow-claude-code-fields accepts Claude Code's `arguments: [pr, priority]`, a flow-style list; without it, the reference's error", async () => {
    const skill = writeSkill(
      tempDir(),
      "review-pr",
      [...fields("review-pr", "Reviews a pull request."), "arguments: [pr, priority]"],
      "Review PR $pr with priority $priority.\n",
    );

    const [allowed, strict] = await Promise.all([
      run(["validate", "--allow-claude-code-fields", skill]),
      run(["validate", skill]),
    ]);

    expect(allowed).toEqual({
      code: 0,
      stdout: `✓ ${skill} (review-pr)\n  warning: Claude Code fields accepted: arguments. Other Agent Skills clients ignore or reject them.\n1 skill checked: 1 valid, 0 invalid\n`,
      stderr: "",
    });
    expect(strict).toEqual({
      code: 1,
      stdout: `✗ ${skill}\n  error: Invalid YAML in frontmatter: flow style collections ([...] or {...}) are not allowed at line 4, column 12\n1 skill checked: 0 valid, 1 invalid\n`,
      stderr: "",
    });
  });

  it("the bundled examples (examples/skills, recursive) are all valid", async () => {
    const examples = path.join(ROOT, "examples", "skills");

    const result = await run(["validate", "--recursive", "--json", examples]);

    expect(result.code).toBe(0);
    const report = parseJson<ValidateJson>(result.stdout);
    expect(report.valid).toBe(true);
    const folders = readdirSync(examples, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(examples, entry.name, "SKILL.md")))
      .map((entry) => path.join(examples, entry.name));
    expect(folders.length).toBeGreaterThan(0);
    expect(report.skills.map((skill) => skill.path)).toEqual(expect.arrayContaining(folders));
    for (const skill of report.skills) {
      expect(skill).toEqual({
        path: skill.path,
        name: path.basename(skill.path),
        valid: true,
        errors: [],
        warnings: [],
      });
    }
  });
});
