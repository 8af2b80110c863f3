// End-to-end tests of the `skillset` CLI: every test runs the BUILT binary (dist/cli/main.js,
// from `npm run build`) as a real Node process against real temporary folders.
import { execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

const execFileAsync = promisify(execFile);

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = path.join(ROOT, "dist", "cli", "main.js");
const { version: VERSION } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
const ESC = "\x1b[";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** Working folder of the process; a fresh empty temp folder when not given. */
  cwd?: string;
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

/** The environment every run starts from: colour off (NO_COLOR=1) and no FORCE_COLOR leaking in from the runner. */
function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs the built CLI; never throws for a non-zero exit, which comes back as `code`. */
async function run(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const cwd = options.cwd ?? tempDir();
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], {
      cwd,
      env: cliEnv(options.env),
      encoding: "utf8",
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failure.code !== "number") throw error;
    return { code: failure.code, stdout: failure.stdout ?? "", stderr: failure.stderr ?? "" };
  }
}

/** Writes `<dir>/<name>/SKILL.md` with the given frontmatter lines; returns the skill folder. */
function writeSkill(
  dir: string,
  name: string,
  frontmatterLines: string[],
  body = `# ${name}\n\nDo the thing.\n`,
): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "SKILL.md"), ["---", ...frontmatterLines, "---", "", body].join("\n"));
  return folder;
}

/** The two required frontmatter lines. */
function fields(name: string, description: string): string[] {
  return [`name: ${name}`, `description: ${description}`];
}

const created: string[] = [];

/** A real temporary folder, removed after the test. */
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "skillset-cli-"));
  created.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
});

function parseJson<T>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

interface ValidateJson {
  skills: Array<{ path: string; name: string | null; valid: boolean; errors: string[]; warnings: string[] }>;
  valid: boolean;
}

interface DiagnosticJson {
  severity: string;
  code: string;
  file: string;
  message: string;
  skill?: string;
  source?: string;
}

interface ListJson {
  skills: Array<{
    name: string | null;
    description: string | null;
    path: string;
    source: string;
    status: string;
    diagnostics: DiagnosticJson[];
  }>;
  diagnostics: DiagnosticJson[];
}

interface InfoJson {
  skill: { name: string; description: string; path: string; source: string; license?: string };
  directory: string;
  resources: Array<{ path: string; relativePath: string; type: string; size?: number }>;
  resourcesTruncated: boolean;
  shadowed: string[];
  diagnostics: DiagnosticJson[];
}

const sorted = (values: Iterable<string>) => [...values].sort();

// ---------------------------------------------------------------------------------------------
// validate
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// list
// ---------------------------------------------------------------------------------------------

/** Two sources: s1 {alpha, dup}, s2 {dup, mismatch-dir (name other-name), nodesc (no description)}. */
function listFixture() {
  const dir = tempDir();
  const s1 = path.join(dir, "s1");
  const s2 = path.join(dir, "s2");
  writeSkill(s1, "alpha", fields("alpha", "Alpha skill."));
  writeSkill(s1, "dup", fields("dup", "Dup from s1."));
  writeSkill(s2, "dup", fields("dup", "Dup from s2."));
  writeSkill(s2, "mismatch-dir", fields("other-name", "Name does not match its folder."));
  writeSkill(s2, "nodesc", ["name: nodesc"]);
  return { s1, s2, file: (source: string, name: string) => path.join(source, name, "SKILL.md") };
}

describe("skillset list", () => {
  it("--json reports ok, warning, shadowed (earlier source) and skipped skills", async () => {
    const { s1, s2, file } = listFixture();

    const result = await run(["list", "--json", s1, s2]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const listing = parseJson<ListJson>(result.stdout);
    expect(Object.keys(listing).sort()).toEqual(["diagnostics", "skills"]);
    for (const row of listing.skills)
      expect(Object.keys(row).sort()).toEqual([
        "catalog",
        "description",
        "diagnostics",
        "name",
        "path",
        "source",
        "status",
      ]);
    expect(listing).toEqual({
      skills: [
        {
          name: "alpha",
          description: "Alpha skill.",
          path: file(s1, "alpha"),
          source: `local:${s1}`,
          status: "ok",
          catalog: "whole",
          diagnostics: [],
        },
        {
          name: "dup",
          description: "Dup from s1.",
          path: file(s1, "dup"),
          source: `local:${s1}`,
          status: "shadowed",
          catalog: null,
          diagnostics: [
            {
              severity: "info",
              code: "shadowed",
              file: file(s1, "dup"),
              skill: "dup",
              source: `local:${s1}`,
              message: `Skill 'dup' is shadowed by ${file(s2, "dup")} from local:${s2}`,
            },
          ],
        },
        {
          name: "dup",
          description: "Dup from s2.",
          path: file(s2, "dup"),
          source: `local:${s2}`,
          status: "ok",
          catalog: "whole",
          diagnostics: [],
        },
        {
          name: "nodesc",
          description: null,
          path: file(s2, "nodesc"),
          source: `local:${s2}`,
          status: "skipped",
          catalog: null,
          diagnostics: [
            {
              severity: "error",
              code: "description-missing",
              file: file(s2, "nodesc"),
              message: "Missing required field in frontmatter: description",
              source: `local:${s2}`,
              skill: "nodesc",
            },
          ],
        },
        {
          name: "other-name",
          description: "Name does not match its folder.",
          path: file(s2, "mismatch-dir"),
          source: `local:${s2}`,
          status: "warning",
          catalog: "whole",
          diagnostics: [
            {
              severity: "warning",
              code: "spec",
              file: file(s2, "mismatch-dir"),
              message: "Directory name 'mismatch-dir' must match skill name 'other-name'",
              source: `local:${s2}`,
              skill: "other-name",
            },
          ],
        },
      ],
      diagnostics: [],
    });
  });

  it("human output has a header line, one row per skill, a summary and a diagnostics section naming each file", async () => {
    const { s1, s2, file } = listFixture();

    const result = await run(["list", s1, s2]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME {4,}STATUS {4}PATH +DESCRIPTION$/);
    // The PATH column is the skill's folder, cut at the start to 50 characters (long temp folders, e.g. on macOS).
    const column = (folder: string) => (folder.length <= 50 ? folder : `…${folder.slice(folder.length - 49)}`);
    const rows = lines.slice(1, 6).map((line) =>
      line
        .split(/\s{2,}/)
        .filter(Boolean)
        .slice(0, 3),
    );
    expect(rows).toEqual([
      ["alpha", "ok", column(path.join(s1, "alpha"))],
      ["dup", "shadowed", column(path.join(s1, "dup"))],
      ["dup", "ok", column(path.join(s2, "dup"))],
      ["nodesc", "skipped", column(path.join(s2, "nodesc"))],
      ["other-name", "warning", column(path.join(s2, "mismatch-dir"))],
    ]);
    expect(lines.slice(6)).toEqual([
      "",
      "3 skills available (1 with warnings); 1 shadowed, 1 skipped",
      "",
      "Diagnostics:",
      `  ${file(s1, "dup")}: info: Skill 'dup' is shadowed by ${file(s2, "dup")} from local:${s2}`,
      `  ${file(s2, "nodesc")}: error: Missing required field in frontmatter: description`,
      `  ${file(s2, "mismatch-dir")}: warning: Directory name 'mismatch-dir' must match skill name 'other-name'`,
      "",
    ]);
  });

  it("a missing folder exits 1 with `No such folder: <path>`", async () => {
    const { s1 } = listFixture();
    const missing = path.join(path.dirname(s1), "does-not-exist");

    const result = await run(["list", s1, missing]);

    expect(result).toEqual({ code: 1, stdout: "", stderr: `skillset: No such folder: ${missing}\n` });
  });

  it("without sources reads the default folders under HOME and cwd; project .agents/skills overrides ~/.claude/skills", async () => {
    const home = tempDir();
    const project = tempDir();
    const userClaude = path.join(home, ".claude", "skills");
    const userAgents = path.join(home, ".agents", "skills");
    const projectClaude = path.join(project, ".claude", "skills");
    const projectAgents = path.join(project, ".agents", "skills");
    writeSkill(userClaude, "shared", fields("shared", "From ~/.claude/skills."));
    writeSkill(userClaude, "user-only", fields("user-only", "Only in ~/.claude/skills."));
    writeSkill(userAgents, "agents-only", fields("agents-only", "Only in ~/.agents/skills."));
    writeSkill(projectClaude, "project-only", fields("project-only", "Only in ./.claude/skills."));
    writeSkill(projectAgents, "shared", fields("shared", "From ./.agents/skills."));

    const result = await run(["list", "--json"], { cwd: project, env: { HOME: home } });

    expect(result.code).toBe(0);
    const listing = parseJson<ListJson>(result.stdout);
    const summary = listing.skills.map(({ name, source, status }) => ({ name, source, status }));
    expect(summary).toEqual(
      expect.arrayContaining([
        { name: "agents-only", source: `local:${userAgents}`, status: "ok" },
        { name: "project-only", source: `local:${projectClaude}`, status: "ok" },
        { name: "shared", source: `local:${projectAgents}`, status: "ok" },
        { name: "shared", source: `local:${userClaude}`, status: "shadowed" },
        { name: "user-only", source: `local:${userClaude}`, status: "ok" },
      ]),
    );
    expect(summary).toHaveLength(5);
    expect(listing.diagnostics).toEqual([]);
    const winner = listing.skills.find((row) => row.name === "shared" && row.status === "ok");
    expect(winner?.description).toBe("From ./.agents/skills.");
  });

  it("without sources and no default folders exits 1 with `No skills folders found`", async () => {
    const home = tempDir();
    const project = tempDir();

    const result = await run(["list"], { cwd: project, env: { HOME: home } });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith("skillset: No skills folders found")).toBe(true);
    for (const location of [
      path.join(home, ".claude", "skills"),
      path.join(home, ".agents", "skills"),
      path.join(project, ".claude", "skills"),
      path.join(project, ".agents", "skills"),
    ]) {
      expect(result.stderr).toContain(location);
    }
  });

  // With cwd === HOME, ~/.claude/skills is both a user and a project location: scan it once.
  it("with cwd equal to HOME each default skill is listed once, not shadowed by itself", async () => {
    const home = tempDir();
    writeSkill(path.join(home, ".claude", "skills"), "mine", fields("mine", "A user skill."));

    const result = await run(["list", "--json"], { cwd: home, env: { HOME: home } });

    expect(result.code).toBe(0);
    expect(parseJson<ListJson>(result.stdout).skills.map((row) => row.status)).toEqual(["ok"]);
  });
});

// ---------------------------------------------------------------------------------------------
// info
// ---------------------------------------------------------------------------------------------

/** A source folder with one skill, `tool`, that has one resource of each type. */
function infoFixture() {
  const source = tempDir();
  const skill = writeSkill(source, "tool", [...fields("tool", "A tool skill."), "license: MIT"]);
  for (const [relative, content] of [
    ["scripts/run.sh", "echo hi\n"],
    ["references/guide.md", "# Guide\n"],
    ["assets/logo.txt", "logo\n"],
    ["notes.md", "notes\n"],
  ] as const) {
    mkdirSync(path.dirname(path.join(skill, relative)), { recursive: true });
    writeFileSync(path.join(skill, relative), content);
  }
  return { source, skill };
}

describe("skillset info", () => {
  it("prints the skill's path and its resources grouped by type", async () => {
    const { source, skill } = infoFixture();

    const result = await run(["info", "tool", source]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "tool",
        "",
        "A tool skill.",
        "",
        `Path:             ${path.join(skill, "SKILL.md")}`,
        `Source:           local:${source}`,
        "License:          MIT",
        "",
        "Resources",
        "  Scripts (1)",
        "    scripts/run.sh 8 B",
        "  References (1)",
        "    references/guide.md 8 B",
        "  Assets (1)",
        "    assets/logo.txt 5 B",
        "  Other files (1)",
        "    notes.md 6 B",
        "",
      ].join("\n"),
    );
  });

  it("--json gives resources typed script/reference/asset/other with their relativePath", async () => {
    const { source, skill } = infoFixture();

    const result = await run(["info", "tool", source, "--json"]);

    expect(result.code).toBe(0);
    const info = parseJson<InfoJson>(result.stdout);
    expect(Object.keys(info).sort()).toEqual([
      "diagnostics",
      "directory",
      "resources",
      "resourcesTruncated",
      "shadowed",
      "skill",
    ]);
    expect(info.skill).toMatchObject({
      name: "tool",
      description: "A tool skill.",
      path: path.join(skill, "SKILL.md"),
      source: `local:${source}`,
      license: "MIT",
    });
    expect(info.directory).toBe(skill);
    expect([...info.resources].sort((a, b) => a.relativePath.localeCompare(b.relativePath))).toEqual([
      { path: path.join(skill, "assets", "logo.txt"), relativePath: "assets/logo.txt", type: "asset", size: 5 },
      { path: path.join(skill, "notes.md"), relativePath: "notes.md", type: "other", size: 6 },
      {
        path: path.join(skill, "references", "guide.md"),
        relativePath: "references/guide.md",
        type: "reference",
        size: 8,
      },
      { path: path.join(skill, "scripts", "run.sh"), relativePath: "scripts/run.sh", type: "script", size: 8 },
    ]);
    expect(info.resourcesTruncated).toBe(false);
    expect(info.shadowed).toEqual([]);
    expect(info.diagnostics).toEqual([]);
  });

  it("an unknown name exits 1 and lists the available skills", async () => {
    const { source } = infoFixture();
    writeSkill(source, "another", fields("another", "Another skill."));

    const result = await run(["info", "nope", source]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "skillset: Skill 'nope' not found. Available skills: another, tool\n",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// create
// ---------------------------------------------------------------------------------------------

describe("skillset create", () => {
  it("creates <dir>/<name>/SKILL.md that then passes validate", async () => {
    const dir = tempDir();
    const skill = path.join(dir, "my-skill");

    const result = await run(["create", "my-skill", "--dir", dir]);

    expect(result).toEqual({ code: 0, stdout: `Created ${skill}\n`, stderr: "" });
    expect(readdirSync(skill)).toEqual(["SKILL.md"]);
    const validation = await run(["validate", "--json", skill]);
    expect(validation.code).toBe(0);
    expect(parseJson<ValidateJson>(validation.stdout)).toEqual({
      skills: [{ path: skill, name: "my-skill", valid: true, errors: [], warnings: [] }],
      valid: true,
    });
  });

  it("without --dir creates the skill in the working folder", async () => {
    const cwd = tempDir();

    const result = await run(["create", "here"], { cwd });

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Created ${path.join(cwd, "here")}\n`);
    expect(existsSync(path.join(cwd, "here", "SKILL.md"))).toBe(true);
  });

  it("--resources scripts,references,assets creates the three folders, scripts/example.sh executable", async () => {
    const dir = tempDir();
    const skill = path.join(dir, "with-res");

    const result = await run(["create", "with-res", "--dir", dir, "--resources", "scripts,references,assets"]);

    expect(result.code).toBe(0);
    expect(sorted(readdirSync(skill))).toEqual(["SKILL.md", "assets", "references", "scripts"]);
    expect(readdirSync(path.join(skill, "scripts"))).toEqual(["example.sh"]);
    expect(readdirSync(path.join(skill, "references"))).toEqual(["REFERENCE.md"]);
    expect(readdirSync(path.join(skill, "assets"))).toEqual(["template.md"]);
    if (process.platform !== "win32")
      expect(statSync(path.join(skill, "scripts", "example.sh")).mode & 0o111).toBe(0o111);
    const [validation, info] = await Promise.all([run(["validate", skill]), run(["info", "with-res", dir, "--json"])]);
    expect(validation.code).toBe(0);
    expect(
      parseJson<InfoJson>(info.stdout)
        .resources.map(({ relativePath, type }) => `${type}:${relativePath}`)
        .sort(),
    ).toEqual(["asset:assets/template.md", "reference:references/REFERENCE.md", "script:scripts/example.sh"]);
  });

  it("an invalid name is a usage error: exit 2, names the problem on stderr and writes nothing", async () => {
    const dir = tempDir();

    const result = await run(["create", "Bad--Name", "--dir", dir]);

    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillset: Invalid skill name 'Bad--Name': Skill name 'Bad--Name' must be lowercase; Skill name cannot contain consecutive hyphens\n",
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an existing folder exits 1 and is left unchanged", async () => {
    const dir = tempDir();
    const existing = path.join(dir, "taken");
    mkdirSync(existing);
    writeFileSync(path.join(existing, "keep.txt"), "mine\n");

    const result = await run(["create", "taken", "--dir", dir, "--resources", "scripts"]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: ${existing} already exists; choose another name or --dir\n`,
    });
    expect(readdirSync(existing)).toEqual(["keep.txt"]);
    expect(readFileSync(path.join(existing, "keep.txt"), "utf8")).toBe("mine\n");
  });

  it("an unknown resource folder is a usage error (exit 2) and writes nothing", async () => {
    const dir = tempDir();

    const result = await run(["create", "fine-name", "--dir", dir, "--resources", "scripts,bogus"]);

    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: Unknown resource folder: bogus. Use any of scripts, references, assets.\n",
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("--description with quotes, colons and a newline round-trips through validate and info --json", async () => {
    const dir = tempDir();
    const description = `  Say "hi": then it's 'done'.\nKey: value # not a comment, {braces} & [brackets]  `;

    const creation = await run(["create", "quoted", "--dir", dir, "--description", description]);
    expect(creation.code).toBe(0);

    const [validation, info] = await Promise.all([
      run(["validate", path.join(dir, "quoted")]),
      run(["info", "quoted", dir, "--json"]),
    ]);
    expect(validation.code).toBe(0);
    expect(info.code).toBe(0);
    expect(parseJson<InfoJson>(info.stdout).skill.description).toBe(description.trim());
  });

  it("--dir naming an existing file fails with a one-line message, not a stack trace", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a-file");
    writeFileSync(file, "");

    const result = await run(["create", "x", "--dir", file]);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^skillset: [^\n]+\n$/);
  });
});

// ---------------------------------------------------------------------------------------------
// prompt
// ---------------------------------------------------------------------------------------------

describe("skillset prompt", () => {
  it("markdown starts with `## Skills` and has one `- name: description` line per skill in name order", async () => {
    const dir = tempDir();
    writeSkill(dir, "zeta", fields("zeta", "Last by name."));
    writeSkill(dir, "alpha", fields("alpha", "First by name."));
    writeSkill(dir, "mid", ["name: mid", "description: |", "  Spans", "  two lines."]);

    const result = await run(["prompt", dir]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.startsWith("## Skills\n\n")).toBe(true);
    expect(result.stdout.split("\n").filter((line) => line.startsWith("- "))).toEqual([
      "- alpha: First by name.",
      "- mid: Spans two lines.",
      "- zeta: Last by name.",
    ]);
    // The tail is what the middleware adds on a first model call: the resource line, then the empty loaded list.
    expect(
      result.stdout.endsWith(
        "- alpha: First by name.\n- mid: Spans two lines.\n- zeta: Last by name.\n" +
          "Read a loaded skill's resources with `read_file`; its `allowed-tools` are recommendations.\n\nLoaded skills: none (10 slots free).\n",
      ),
    ).toBe(true);
  });

  it("--format xml prints exactly the reference <available_skills> format", async () => {
    const dir = tempDir();
    writeSkill(dir, "zeta", fields("zeta", `"Zeta & <friends>: it's \\"fine\\""`));
    writeSkill(dir, "beta", fields("beta", "Beta one."));

    const result = await run(["prompt", dir, "--format", "xml"]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "beta",
        "</name>",
        "<description>",
        "Beta one.",
        "</description>",
        "<location>",
        path.join(dir, "beta", "SKILL.md"),
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "zeta",
        "</name>",
        "<description>",
        "Zeta &amp; &lt;friends&gt;: it&#x27;s &quot;fine&quot;",
        "</description>",
        "<location>",
        path.join(dir, "zeta", "SKILL.md"),
        "</location>",
        "</skill>",
        "</available_skills>",
        "",
      ].join("\n"),
    );
  });

  it("--tokens prints the counts on stderr and leaves stdout unchanged", async () => {
    const dir = tempDir();
    writeSkill(dir, "one", fields("one", "First skill."));
    writeSkill(dir, "two", fields("two", "Second skill."));

    const [plain, counted] = await Promise.all([run(["prompt", dir]), run(["prompt", dir, "--tokens"])]);

    expect(plain.code).toBe(0);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toBe(plain.stdout);
    expect(counted.stderr).toMatch(/^\d+ tokens \(o200k_base\): \d+ preamble/);
    expect(counted.stderr).toMatch(
      /^\d+ tokens \(o200k_base\): \d+ preamble, \d+\.\d per skill on average over 2 skills\n$/,
    );
  });

  it("--format json is a usage error: exit 2", async () => {
    const dir = tempDir();
    writeSkill(dir, "one", fields("one", "First skill."));

    const result = await run(["prompt", dir, "--format", "json"]);

    expect(result).toEqual({ code: 2, stdout: "", stderr: "skillset: Unknown format 'json': use markdown or xml\n" });
  });
});

// ---------------------------------------------------------------------------------------------
// help and version
// ---------------------------------------------------------------------------------------------

describe("help and version", () => {
  it.each([
    {
      name: "skillset",
      command: [],
      mentions: [
        "Usage: skillset [options] [command]",
        "--version",
        "--help",
        "validate",
        "list",
        "info",
        "create",
        "prompt",
      ],
    },
    {
      name: "skillset validate",
      command: ["validate"],
      mentions: ["Usage: skillset validate", "--recursive", "--json", "--allow-claude-code-fields"],
    },
    { name: "skillset list", command: ["list"], mentions: ["Usage: skillset list", "--recursive", "--json"] },
    { name: "skillset info", command: ["info"], mentions: ["Usage: skillset info", "<name>", "--recursive", "--json"] },
    {
      name: "skillset create",
      command: ["create"],
      mentions: ["Usage: skillset create", "<name>", "--dir <dir>", "--description <text>", "--resources <list>"],
    },
    {
      name: "skillset prompt",
      command: ["prompt"],
      mentions: ["Usage: skillset prompt", "--recursive", "--format <format>", "--tokens"],
    },
  ])("$name --help exits 0 and names its options", async ({ command, mentions }) => {
    const result = await run([...command, "--help"]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    for (const text of mentions) expect(result.stdout).toContain(text);
  });

  it("list --help gives the sources' default once, not a second `(default: [])`", async () => {
    const result = await run(["list", "--help"]);

    expect(result.code).toBe(0);
    expect(/\nArguments:\n[\s\S]*?\n\n/.exec(result.stdout)?.[0]).toBe(
      "\nArguments:\n" +
        "  sources             skills folders, npm:<package> (its skills), npm: (the\n" +
        '                      packages the project\'s package.json names in "skills") or\n' +
        "                      https://<site> (the skills it publishes at\n" +
        "                      /.well-known/agent-skills/), lowest precedence first\n" +
        "                      (default: ~/.claude/skills, ~/.agents/skills, then\n" +
        "                      .claude/skills, .agents/skills of the project: the nearest\n" +
        "                      folder up with .git or package.json)\n\n",
    );
  });

  it.each(["validate", "list", "info", "prompt", "search", "render", "mcp", "chat", "eval", "tune"])(
    "%s --help names one default per argument",
    async (command) => {
      const result = await run([command, "--help"]);

      expect(result.code).toBe(0);
      const argumentsSection = /\nArguments:\n([\s\S]*?)\n\n/.exec(result.stdout)![1]!;
      // One argument per entry: a line starting with two spaces and the argument's name.
      for (const entry of argumentsSection.split(/\n(?= {2}\S)/))
        expect(entry.match(/\(default:/g)?.length ?? 0, entry).toBeLessThanOrEqual(1);
      expect(result.stdout).not.toContain("(default: [])");
    },
  );

  it("--version prints the package.json version", async () => {
    const result = await run(["--version"]);

    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});

// ---------------------------------------------------------------------------------------------
// colour
// ---------------------------------------------------------------------------------------------

describe("NO_COLOR", () => {
  /** Runs commands that use every colour (green ✓, red ✗/errors, yellow warnings, bold, dim). */
  async function colourfulRuns(env: Record<string, string | undefined>) {
    const dir = tempDir();
    writeSkill(dir, "good", fields("good", "Fine."));
    writeSkill(dir, "Bad", fields("Bad", "Uppercase."));
    writeSkill(dir, "warned", fields("other", "Mismatched folder."));
    return Promise.all([
      run(["validate", "-r", dir], { env }),
      run(["list", dir], { env }),
      run(["info", "good", dir], { env }),
    ]);
  }

  it("with NO_COLOR=1 and FORCE_COLOR unset, no output contains an escape code", async () => {
    const results = await colourfulRuns({ NO_COLOR: "1", FORCE_COLOR: undefined });

    expect(results.map((result) => result.code)).toEqual([1, 0, 0]);
    for (const result of results) {
      expect(result.stdout).not.toContain(ESC);
      expect(result.stderr).not.toContain(ESC);
    }
  });

  it("FORCE_COLOR=1 does colour the same output (so the check above can see escape codes)", async () => {
    const results = await colourfulRuns({ NO_COLOR: undefined, FORCE_COLOR: "1" });

    for (const result of results) expect(result.stdout).toContain(ESC);
  });

  // On a real terminal colour is on by default, so only there does NO_COLOR make a difference.
  // util-linux `script` gives the CLI a pseudo-terminal.
  it.runIf(process.platform === "linux" && existsSync("/usr/bin/script"))(
    "on a terminal, colour is on by default and NO_COLOR=1 turns it off",
    async () => {
      const skill = writeSkill(tempDir(), "good", fields("good", "Fine."));
      const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
      const command = [process.execPath, CLI, "validate", skill].map(quote).join(" ");
      const onTerminal = async (noColor: string | undefined) => {
        const { stdout } = await execFileAsync("/usr/bin/script", ["-qec", command, "/dev/null"], {
          env: cliEnv({ NO_COLOR: noColor, TERM: "xterm" }),
          encoding: "utf8",
        });
        return stdout;
      };

      const [coloured, plain] = await Promise.all([onTerminal(undefined), onTerminal("1")]);

      expect(coloured).toContain(ESC);
      expect(plain).toContain(`✓ ${skill} (good)`);
      expect(plain).not.toContain(ESC);
    },
  );
});

describe("paths that are files, not folders", () => {
  it("validate --recursive on a file reports it as not a directory, as without --recursive", async () => {
    const file = path.join(tempDir(), "notes.txt");
    writeFileSync(file, "x");
    const result = await run(["validate", "--recursive", "--json", file]);
    expect(result.code).toBe(1);
    expect(parseJson<{ skills: Array<{ errors: string[] }> }>(result.stdout).skills[0]!.errors).toEqual([
      `Not a directory: ${file}`,
    ]);
  });

  it("list on a file fails with a one-line error naming it", async () => {
    const file = path.join(tempDir(), "notes.txt");
    writeFileSync(file, "x");
    const result = await run(["list", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`skillset: Not a folder: ${file}\n`);
  });
});

// ---------------------------------------------------------------------------------------------
// pipes closed early
// ---------------------------------------------------------------------------------------------

/** Runs the CLI with its stdout pipe closed before it writes anything, as `| head -0` would. */
function runWithStdoutClosed(
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: tempDir(),
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe("a reader that stops reading", () => {
  const examples = path.join(ROOT, "examples", "skills");

  it.each([
    ["list", ["list", examples]],
    ["list --json", ["list", "--json", examples]],
    ["prompt", ["prompt", examples]],
    ["info", ["info", "csv-insights", examples]],
  ])("`skillset %s` with stdout closed exits 0 quietly, no EPIPE stack trace", async (_name, args) => {
    const result = await runWithStdoutClosed(args);

    expect(result).toEqual({ code: 0, signal: null, stderr: "" });
  });

  it("validate keeps its verdict: exit 1 when a skill is invalid, quietly, though the report went nowhere", async () => {
    const dir = tempDir();
    writeSkill(dir, "good", fields("good", "Fine."));
    writeSkill(dir, "Bad", fields("Bad", "Uppercase."));

    const result = await runWithStdoutClosed(["validate", "-r", dir]);

    expect(result).toEqual({ code: 1, signal: null, stderr: "" });
  });

  it("`skillset list … | head -1` under `set -o pipefail` prints the header and succeeds", async () => {
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    const { stdout, stderr } = await execFileAsync(
      "bash",
      ["-c", `set -o pipefail; ${quote(process.execPath)} ${quote(CLI)} list ${quote(examples)} | head -1`],
      {
        env: cliEnv(),
        encoding: "utf8",
      },
    );

    expect(stdout).toMatch(/^NAME +STATUS +PATH +DESCRIPTION\n$/);
    expect(stderr).toBe("");
  });
});

// ---------------------------------------------------------------------------------------------
// --json failures
// ---------------------------------------------------------------------------------------------

interface ErrorJson {
  error: { code: string; message: string };
}

describe('--json failures: {"error":{"code","message"}} on stdout, the exit code, the message on stderr', () => {
  it.each([
    {
      what: "list of a missing folder",
      args: (dir: string) => ["list", path.join(dir, "does-not-exist"), "--json"],
      code: 1,
      error: (dir: string) => ({
        code: "no-such-folder",
        message: `No such folder: ${path.join(dir, "does-not-exist")}`,
      }),
    },
    {
      what: "list of a file",
      args: (dir: string) => ["list", "--json", path.join(dir, "tool", "SKILL.md")],
      code: 1,
      error: (dir: string) => ({
        code: "not-a-folder",
        message: `Not a folder: ${path.join(dir, "tool", "SKILL.md")}`,
      }),
    },
    {
      what: "info of an unknown skill",
      args: (dir: string) => ["info", "nope", dir, "--json"],
      code: 1,
      error: () => ({ code: "not-found", message: "Skill 'nope' not found. Available skills: tool" }),
    },
    {
      what: "info without a name",
      args: () => ["info", "--json"],
      code: 2,
      error: () => ({ code: "usage", message: "missing required argument 'name' (see `skillset info --help`)" }),
    },
    {
      what: "list with an unknown option",
      args: (dir: string) => ["list", dir, "--json", "--bogus"],
      code: 2,
      error: () => ({ code: "usage", message: "unknown option '--bogus' (see `skillset list --help`)" }),
    },
    {
      what: "list with --json before the command's name",
      args: (dir: string) => ["--json", "list", dir],
      code: 2,
      error: (dir: string) => ({
        code: "usage",
        message: `--json is an option of the command, so it goes after it: skillset list --json ${dir}`,
      }),
    },
    {
      what: "list with a mistyped option",
      args: (dir: string) => ["list", dir, "--json", "--recursve"],
      code: 2,
      error: () => ({
        code: "usage",
        message: "unknown option '--recursve'; did you mean --recursive? (see `skillset list --help`)",
      }),
    },
    {
      what: "validate with an unknown option",
      args: (dir: string) => ["validate", "--json", "--bogus", dir],
      code: 2,
      error: () => ({ code: "usage", message: "unknown option '--bogus' (see `skillset validate --help`)" }),
    },
  ])("$what exits $code with the error as JSON", async ({ args, code, error }) => {
    const { source } = infoFixture();

    const result = await run(args(source));

    expect(result.code).toBe(code);
    const report = parseJson<ErrorJson>(result.stdout);
    expect(report).toEqual({ error: error(source) });
    expect(result.stderr).toBe(`skillset: ${report.error.message}\n`);
  });

  it("without default folders, list --json reports no-skills-folders", async () => {
    const result = await run(["list", "--json"], { cwd: tempDir(), env: { HOME: tempDir() } });

    expect(result.code).toBe(1);
    expect(parseJson<ErrorJson>(result.stdout).error.code).toBe("no-skills-folders");
  });

  it("an option of the command before the command's name: exit 2, one line giving the command line that works", async () => {
    const dir = tempDir();
    writeSkill(dir, "only", fields("only", "The only one."));

    const [json, several, unknown] = await Promise.all([
      run(["--json", "list", dir]),
      run(["-r", "--budget", "none", "list", dir]),
      run(["-r", "--bogus", "list", dir]),
    ]);

    expect(json).toEqual({
      code: 2,
      stdout: `${JSON.stringify({ error: { code: "usage", message: `--json is an option of the command, so it goes after it: skillset list --json ${dir}` } }, null, 2)}\n`,
      stderr: `skillset: --json is an option of the command, so it goes after it: skillset list --json ${dir}\n`,
    });
    expect(several).toEqual({
      code: 2,
      stdout: "",
      stderr: `skillset: -r is an option of the command, so it goes after it: skillset list -r --budget none ${dir}\n`,
    });
    // Moving would not help when another option is unknown to the command too.
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: unknown option '-r' (see `skillset list --help`)\n",
    });
    // The command line given works.
    expect(parseJson<ListJson>((await run(["list", "--json", dir])).stdout).skills.map((row) => row.name)).toEqual([
      "only",
    ]);
  });

  it("a mistyped option or command is one line on stderr, its suggestion included", async () => {
    const [option, command] = await Promise.all([run(["list", "--recursve"]), run(["lsit"])]);

    expect(option).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: unknown option '--recursve'; did you mean --recursive? (see `skillset list --help`)\n",
    });
    expect(command).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: unknown command 'lsit'; did you mean list? (see `skillset --help`)\n",
    });
  });

  it("an option value that happens to be --json does not turn the output into JSON", async () => {
    const result = await run(["validate", "--bogus", "--", "--json"]);

    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: unknown option '--bogus' (see `skillset validate --help`)\n",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// create: folders that cannot be made
// ---------------------------------------------------------------------------------------------

describe("skillset create --dir that cannot hold a new folder", () => {
  // Node 20's mkdirSync(…, { recursive: true }) spins forever under /proc; the guard is the timeout.
  it.runIf(process.platform === "linux" && existsSync("/proc/self"))(
    "--dir /proc/nope fails at once, naming the folder",
    async () => {
      const started = Date.now();
      const result = await runWithTimeout(["create", "x", "--dir", "/proc/nope"], 10_000);

      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: "skillset: Cannot create /proc/nope/x: /proc does not accept new folders (ENOENT)\n",
        timedOut: false,
      });
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it("--dir below a file names the file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a-file");
    writeFileSync(file, "");

    const result = await run(["create", "x", "--dir", path.join(file, "deeper")]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: Cannot create ${path.join(file, "deeper", "x")}: ${file} is not a folder\n`,
    });
  });

  it.runIf(process.platform !== "win32" && process.getuid?.() !== 0)(
    "--dir inside a read-only folder says it is not writable and writes nothing",
    async () => {
      const dir = tempDir();
      const locked = path.join(dir, "locked");
      mkdirSync(locked, { mode: 0o555 });

      const result = await run(["create", "x", "--dir", path.join(locked, "new")]);

      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: `skillset: Cannot create ${path.join(locked, "new", "x")}: ${locked} is not writable\n`,
      });
      expect(readdirSync(locked)).toEqual([]);
    },
  );

  it("--dir that does not exist yet is created with the skill", async () => {
    const dir = tempDir();

    const result = await run(["create", "deep-skill", "--dir", path.join(dir, "a", "b")]);

    expect(result).toEqual({ code: 0, stdout: `Created ${path.join(dir, "a", "b", "deep-skill")}\n`, stderr: "" });
    expect(readdirSync(path.join(dir, "a", "b", "deep-skill"))).toEqual(["SKILL.md"]);
  });
});

/** Runs the built CLI, killing it after `timeoutMs`; `timedOut` says whether it had to. */
function runWithTimeout(args: string[], timeoutMs: number): Promise<RunResult & { timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: tempDir(),
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, timedOut });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// hints, plurals and the list table
// ---------------------------------------------------------------------------------------------

/** Runs a hint printed as `skillset …` in a shell, from `cwd`, with the built CLI as `skillset`. */
async function runHint(command: string, cwd: string): Promise<RunResult> {
  expect(command.startsWith("skillset ")).toBe(true);
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const shellLine = `${quote(process.execPath)} ${quote(CLI)} ${command.slice("skillset ".length)}`;
  try {
    const { stdout, stderr } = await execFileAsync("sh", ["-c", shellLine], { cwd, env: cliEnv(), encoding: "utf8" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

describe("hints work as printed", () => {
  it("prompt's skipped-skills hint names the same sources and --recursive, quoted for the shell", async () => {
    const cwd = tempDir();
    const odd = path.join(cwd, "it's a folder");
    writeSkill(path.join(odd, "group"), "nodesc", ["name: nodesc"]);
    writeSkill(path.join(cwd, "plain"), "fine", fields("fine", "Fine."));

    const result = await run(["prompt", "-r", "plain", odd], { cwd });

    expect(result.code).toBe(0);
    const hint = /^1 skill was skipped; run `([^`]+)` to see why\.\n$/.exec(result.stderr);
    expect(hint?.[1]).toBe(`skillset list --recursive plain '${odd.replaceAll("'", "'\\''")}'`);
    const listed = await runHint(hint![1]!, cwd);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      `${path.join(odd, "group", "nodesc", "SKILL.md")}: error: Missing required field in frontmatter: description`,
    );
  });

  it("validate of a folder of skills without --recursive hints at --recursive, with the same flags", async () => {
    const cwd = tempDir();
    writeSkill(path.join(cwd, "skills"), "one", fields("one", "One."));
    writeSkill(path.join(cwd, "skills"), "two", fields("two", "Two."));

    const [human, json] = await Promise.all([
      run(["validate", "skills"], { cwd }),
      run(["validate", "--json", "skills"], { cwd }),
    ]);

    expect(human).toEqual({
      code: 1,
      stdout:
        "✗ skills\n  error: Missing required file: SKILL.md\n" +
        "  warning: skills holds no SKILL.md, but 2 folders in it do: to validate them, run `skillset validate --recursive skills`\n" +
        "1 skill checked: 0 valid, 1 invalid\n",
      stderr: "",
    });
    const report = parseJson<ValidateJson>(json.stdout);
    expect(report.skills[0]!.errors).toEqual(["Missing required file: SKILL.md"]);
    const hint = /run `([^`]+)`$/.exec(report.skills[0]!.warnings[0]!)![1]!;
    expect(hint).toBe("skillset validate --recursive --json skills");
    const followed = await runHint(hint, cwd);
    expect(followed.code).toBe(0);
    expect(parseJson<ValidateJson>(followed.stdout).skills.map((skill) => skill.name)).toEqual(["one", "two"]);
  });

  it("validate of an empty folder has no --recursive hint", async () => {
    const dir = tempDir();

    const result = await run(["validate", "--json", dir]);

    expect(parseJson<ValidateJson>(result.stdout).skills[0]!.warnings).toEqual([]);
  });
});

describe("counts read as English", () => {
  it("one skill: `1 skill available`, `over 1 skill`, `1 skill checked`", async () => {
    const dir = tempDir();
    const skill = writeSkill(dir, "only", fields("only", "The only one."));

    const [listed, prompted, validated] = await Promise.all([
      run(["list", dir]),
      run(["prompt", "--tokens", dir]),
      run(["validate", skill]),
    ]);

    expect(listed.stdout).toContain("\n1 skill available (0 with warnings); 0 shadowed, 0 skipped\n");
    expect(prompted.stderr).toMatch(/ per skill on average over 1 skill\n$/);
    expect(validated.stdout).toContain("1 skill checked: 1 valid, 0 invalid\n");
  });
});

describe("the list table tells rows apart", () => {
  it("shows each skill's folder relative to the working folder, and names skipped skills by their folder", async () => {
    const cwd = tempDir();
    writeSkill(path.join(cwd, "team"), "dup", fields("dup", "Team copy."));
    writeSkill(path.join(cwd, "mine"), "dup", fields("dup", "My copy."));
    writeSkill(path.join(cwd, "mine"), "nameless", ["description: No name in the frontmatter."]);

    const result = await run(["list", "team", "mine"], { cwd });

    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(0, 4)).toEqual([
      "NAME      STATUS    PATH           DESCRIPTION",
      "dup       ok        mine/dup       My copy.",
      "dup       shadowed  team/dup       Team copy.",
      "nameless  skipped   mine/nameless  ",
    ]);
  });

  it("info on a skipped skill says why it was skipped", async () => {
    const dir = tempDir();
    writeSkill(dir, "fine", fields("fine", "Fine."));
    writeSkill(dir, "broken", ["name: broken"]);

    const result = await run(["info", "broken", dir]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: Skill 'broken' was skipped: ${path.join(dir, "broken", "SKILL.md")}: error: Missing required field in frontmatter: description. Available skills: fine\n`,
    });
  });
});

describe("YAML errors name their line and column in the SKILL.md", () => {
  it("in validate's report, and in list's and info's diagnostics", async () => {
    const dir = tempDir();
    const repaired = writeSkill(dir, "unclosed", ["name: unclosed", "description: [unclosed"]);
    const skipped = writeSkill(dir, "quoted", ["name: quoted", 'description: "unclosed', "license: MIT"]);
    const flow =
      "Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 14";
    const quote = 'Missing closing "quote at line 3, column 14';

    const [validated, listed, info] = await Promise.all([
      run(["validate", "-r", dir]),
      run(["list", "--json", dir]),
      run(["info", "unclosed", dir]),
    ]);

    expect(validated).toEqual({
      code: 1,
      stdout: `✗ ${skipped}\n  error: Invalid YAML in frontmatter: ${quote}\n✗ ${repaired}\n  error: Invalid YAML in frontmatter: ${flow}\n2 skills checked: 0 valid, 2 invalid\n`,
      stderr: "",
    });
    expect(
      parseJson<ListJson>(listed.stdout).skills.map((row) => [
        row.status,
        row.diagnostics.map((diagnostic) => diagnostic.message),
      ]),
    ).toEqual([
      ["skipped", [`Invalid YAML in frontmatter: ${quote}`]],
      ["warning", [`Invalid YAML in frontmatter: ${flow}; read after quoting the values that are not valid YAML`]],
    ]);
    expect(info.stdout).toContain(
      `\nDiagnostics\n  ${path.join(repaired, "SKILL.md")}: warning: Invalid YAML in frontmatter: ${flow}; read after quoting the values that are not valid YAML\n`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Claude Code's argument-hint, as its documentation writes it
// ---------------------------------------------------------------------------------------------

describe("argument-hint: [file] and argument-hint: [pr-number] [priority]", () => {
  const hintWarning = (hint: string) =>
    `'argument-hint: ${hint}' was read as the text '${hint}'; YAML reads it as a list or not at all, so quote it: argument-hint: "${hint}"`;

  it.each(["[file]", "[pr-number] [priority]"])(
    "`argument-hint: %s` loads with the text written and a warning (info, list)",
    async (hint) => {
      const dir = tempDir();
      const skill = writeSkill(dir, "hinted", [...fields("hinted", "Takes arguments."), `argument-hint: ${hint}`]);

      const [info, human, listed] = await Promise.all([
        run(["info", "hinted", dir, "--json"]),
        run(["info", "hinted", dir]),
        run(["list", "--json", dir]),
      ]);

      expect(info.code).toBe(0);
      const report = parseJson<InfoJson & { skill: { argumentHint?: string } }>(info.stdout);
      expect(report.skill.argumentHint).toBe(hint);
      expect(report.diagnostics).toEqual([
        {
          severity: "warning",
          code: "argument-hint-text",
          file: path.join(skill, "SKILL.md"),
          source: `local:${dir}`,
          message: hintWarning(hint),
        },
      ]);
      expect(human.stdout).toContain(`Argument hint:    ${hint}\n`);
      expect(parseJson<ListJson>(listed.stdout).skills.map((row) => row.status)).toEqual(["warning"]);
    },
  );

  it.each(["[file]", "[pr-number] [priority]"])(
    "validate keeps the reference's error for `argument-hint: %s`; --allow-claude-code-fields accepts it with warnings",
    async (hint) => {
      const skill = writeSkill(tempDir(), "hinted", [
        ...fields("hinted", "Takes arguments."),
        `argument-hint: ${hint}`,
      ]);

      const [strict, allowed] = await Promise.all([
        run(["validate", "--json", skill]),
        run(["validate", "--json", "--allow-claude-code-fields", skill]),
      ]);

      expect(strict.code).toBe(1);
      expect(parseJson<ValidateJson>(strict.stdout).skills[0]!.errors).toEqual([
        expect.stringMatching(/^Invalid YAML in frontmatter: /),
      ]);
      expect(allowed.code).toBe(0);
      expect(parseJson<ValidateJson>(allowed.stdout)).toEqual({
        skills: [
          {
            path: skill,
            name: "hinted",
            valid: true,
            errors: [],
            warnings: [
              hintWarning(hint),
              "Claude Code fields accepted: argument-hint. Other Agent Skills clients ignore or reject them.",
            ],
          },
        ],
        valid: true,
      });
    },
  );
});

// ---------------------------------------------------------------------------------------------
// progress on a terminal
// ---------------------------------------------------------------------------------------------

describe("progress line on a terminal", () => {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  /** What the CLI writes to a pseudo-terminal (util-linux `script`) while its stdout goes to /dev/null. */
  async function stderrOnTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
    const command = `${[process.execPath, CLI, ...args].map(quote).join(" ")} >/dev/null`;
    const { stdout } = await execFileAsync("/usr/bin/script", ["-qec", command, "/dev/null"], {
      env: cliEnv({ TERM: "xterm", ...env }),
      encoding: "utf8",
      timeout: 120_000,
    });
    return stdout;
  }
  const onLinuxWithScript = it.runIf(process.platform === "linux" && existsSync("/usr/bin/script"));

  onLinuxWithScript("a quick scan shows no progress line", async () => {
    const dir = tempDir();
    writeSkill(dir, "quick", fields("quick", "Quick."));

    expect(await stderrOnTerminal(["list", dir])).toBe("");
  });

  // Needs discovery that yields to the event loop (src/sources/local-source.ts): while a scan
  // runs synchronously, the timer cannot fire. A warm scan of 10,000 skills can take less than
  // the 300 ms default on a quiet machine (about 250 ms), so the delay is set to 0 here: the line
  // shows as soon as the scan first yields.
  onLinuxWithScript(
    "a scan of 10,000 skills shows `Scanning 1 skills folder…`, then erases it",
    { timeout: 180_000 },
    async () => {
      const generator = pathToFileURL(path.join(ROOT, "bench", "generate-library.mjs")).href;
      const { ensureLibrary } = (await import(generator)) as { ensureLibrary(count: number): string };
      const library = ensureLibrary(10_000);

      expect(await stderrOnTerminal(["list", library], { SKILLSET_PROGRESS_DELAY_MS: "0" })).toBe(
        "Scanning 1 skills folder…\r\x1b[K",
      );
    },
  );
});
