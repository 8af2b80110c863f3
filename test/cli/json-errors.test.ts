// --json failures of every command: {"error":{"code","message"}} on stdout, the exit code, the
// message on stderr; and usage errors as one line.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fields, parseJson, useCliRun, writeSkill, writeToolSkill, type ErrorJson, type ListJson } from "./helpers.js";

const { tempDir, run } = useCliRun();
const infoFixture = () => writeToolSkill(tempDir());

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
      args: (dir: string) => ["list", "--json", path.join(dir, "tool", "notes.md")],
      code: 1,
      error: (dir: string) => ({
        code: "not-a-folder",
        message: `Not a folder: ${path.join(dir, "tool", "notes.md")}`,
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
