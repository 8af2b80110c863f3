// The commands a hint prints (`run \`skillset …\``) work when run as printed.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseEnv, CLI, type CliResult } from "../helpers/run-cli.js";
import { fields, parseJson, useCliRun, writeSkill, type ValidateJson } from "./helpers.js";

const execFileAsync = promisify(execFile);
const { tempDir, run } = useCliRun();

/** Runs a hint printed as `skillset …` in a shell, from `cwd`, with the built CLI as `skillset`. */
async function runHint(command: string, cwd: string): Promise<CliResult> {
  expect(command.startsWith("skillset ")).toBe(true);
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const shellLine = `${quote(process.execPath)} ${quote(CLI)} ${command.slice("skillset ".length)}`;
  try {
    const { stdout, stderr } = await execFileAsync("sh", ["-c", shellLine], { cwd, env: baseEnv(), encoding: "utf8" });
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

  it("validate, list and prompt of a folder of collections say where the skills lie, and validate's hint works as printed", async () => {
    const cwd = tempDir();
    writeSkill(path.join(cwd, "mirror", "acme", "repo", "skills"), "pdf", fields("pdf", "PDF."));
    writeSkill(path.join(cwd, "mirror", "globex", "skills"), "docx", fields("docx", "Word."));
    const first = path.join("mirror", "acme", "repo", "skills", "pdf", "SKILL.md");

    const [validated, listed, prompted] = await Promise.all([
      run(["validate", "mirror"], { cwd }),
      run(["list", "mirror"], { cwd }),
      run(["prompt", "mirror"], { cwd }),
    ]);

    expect(validated.stdout).toBe(
      "✗ mirror\n  error: Missing required file: SKILL.md\n" +
        `  warning: mirror holds no SKILL.md, but skills lie deeper (the first: ${first}): to validate them, run \`skillset validate --recursive mirror\`\n` +
        "1 skill checked: 0 valid, 1 invalid\n",
    );
    // The sources read the folder by its full path.
    const warning = `${path.join(cwd, "mirror")}: warning: No skill folder in this folder, but skills lie deeper (the first: ${path.join(cwd, first)}): read nested folders with the source's recursive option (--recursive on the command line)`;
    expect(listed.stdout).toContain(
      `0 skills available (0 with warnings); 0 shadowed, 0 skipped\n\nDiagnostics:\n  ${warning}\n`,
    );
    expect(prompted.stderr).toBe(`skillset: ${warning}\n`);
    const followed = await runHint(/run `([^`]+)`/.exec(validated.stdout)![1]!, cwd);
    expect(followed).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("2 skills checked: 2 valid, 0 invalid"),
    });
    const recursive = await run(["list", "--recursive", "mirror"], { cwd });
    expect(recursive.stdout).toContain("2 skills available");
    expect(recursive.stdout).not.toContain("nested");
  });

  it("validate of an empty folder has no --recursive hint", async () => {
    const dir = tempDir();

    const result = await run(["validate", "--json", dir]);

    expect(parseJson<ValidateJson>(result.stdout).skills[0]!.warnings).toEqual([]);
  });
});
