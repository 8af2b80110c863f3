// `skillset create`: a new skill folder that passes validate, and the folders it cannot be made in.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseEnv, CLI, type CliResult } from "../helpers/run-cli.js";
import { parseJson, sorted, useCliRun, type InfoJson, type ValidateJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

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
function runWithTimeout(args: string[], timeoutMs: number): Promise<CliResult & { timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: tempDir(),
      env: baseEnv(),
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
