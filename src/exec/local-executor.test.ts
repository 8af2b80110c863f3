import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalExecutor } from "./local-executor.js";

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

function skillFolder(scripts: Record<string, string> = {}): string {
  const folder = mkdtempSync(join(tmpdir(), "skillset-exec-"));
  folders.push(folder);
  for (const [name, content] of Object.entries(scripts)) {
    writeFileSync(join(folder, name), content);
    chmodSync(join(folder, name), 0o755);
  }
  return folder;
}

describe("createLocalExecutor", () => {
  it("runs in the skill's folder and captures stdout, stderr and the exit code separately", async () => {
    const cwd = skillFolder({ "run.sh": "#!/bin/sh\npwd\necho oops >&2\nexit 3\n" });
    const result = await createLocalExecutor().run({ argv: ["./run.sh"], cwd });
    expect(result).toMatchObject({
      exitCode: 3,
      stdout: `${cwd}\n`,
      stderr: "oops\n",
      timedOut: false,
      stdoutTruncated: false,
      stderrTruncated: false,
    });
  });

  it("writes the request's stdin to the command and closes it; without stdin the command reads nothing", async () => {
    const cwd = skillFolder({ "echo-in.sh": "#!/bin/sh\ncat\necho end\n" });
    const executor = createLocalExecutor();
    expect(
      await executor.run({ argv: ["./echo-in.sh"], cwd, stdin: '{"hook_event_name":"PreToolUse"}' }),
    ).toMatchObject({ exitCode: 0, stdout: '{"hook_event_name":"PreToolUse"}end\n' });
    expect(await executor.run({ argv: ["./echo-in.sh"], cwd })).toMatchObject({ exitCode: 0, stdout: "end\n" });
  });

  it("a command that exits without reading a large stdin still reports its own result", async () => {
    const cwd = skillFolder({ "quit.sh": "#!/bin/sh\necho quit\nexit 4\n" });
    const result = await createLocalExecutor().run({ argv: ["./quit.sh"], cwd, stdin: "x".repeat(4 * 1024 * 1024) });
    expect(result).toMatchObject({ exitCode: 4, stdout: "quit\n", timedOut: false });
  });

  it("passes only allow-listed environment variables, plus passEnv and env", async () => {
    process.env.SKILLSET_TEST_SECRET = "sk-secret";
    process.env.SKILLSET_TEST_PASSED = "visible";
    try {
      const cwd = skillFolder({ "env.sh": "#!/bin/sh\nenv\n" });
      const plain = await createLocalExecutor().run({ argv: ["./env.sh"], cwd });
      expect(plain.stdout).not.toContain("sk-secret");
      expect(plain.stdout).toContain(`PATH=${process.env.PATH}`);
      expect(plain.stdout).toContain(`SKILL_DIR=${cwd}`);
      const extra = await createLocalExecutor({ passEnv: ["SKILLSET_TEST_PASSED"], env: { MODE: "test" } }).run({
        argv: ["./env.sh"],
        cwd,
      });
      expect(extra.stdout).toContain("SKILLSET_TEST_PASSED=visible");
      expect(extra.stdout).toContain("MODE=test");
      expect(extra.stdout).not.toContain("sk-secret");
    } finally {
      delete process.env.SKILLSET_TEST_SECRET;
      delete process.env.SKILLSET_TEST_PASSED;
    }
  });

  it("cuts output at the limit and says so", async () => {
    const cwd = skillFolder({ "big.sh": "#!/bin/sh\nhead -c 5000 /dev/zero | tr '\\0' a\n" });
    const result = await createLocalExecutor({ maxOutputBytes: 100 }).run({ argv: ["./big.sh"], cwd });
    expect(result.stdout).toBe("a".repeat(100));
    expect(result.stdoutTruncated).toBe(true);
    expect(result.exitCode).toBe(0);
  });

  it("kills a run at its timeout", async () => {
    const cwd = skillFolder();
    const started = Date.now();
    const result = await createLocalExecutor({ timeoutMs: 300 }).run({ argv: ["sleep", "20"], cwd });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports a missing program clearly", async () => {
    const result = await createLocalExecutor().run({ argv: ["no-such-program-xyz"], cwd: skillFolder() });
    expect(result).toMatchObject({ exitCode: 127, stderr: "command not found: no-such-program-xyz" });
  });

  it("runs at most maxConcurrent commands at once", async () => {
    const cwd = skillFolder({ "stamp.sh": "#!/bin/sh\ndate +%s%N\nsleep 0.3\ndate +%s%N\n" });
    const executor = createLocalExecutor({ maxConcurrent: 1 });
    const [first, second] = await Promise.all([
      executor.run({ argv: ["./stamp.sh"], cwd }),
      executor.run({ argv: ["./stamp.sh"], cwd }),
    ]);
    const [, firstEnd] = first!.stdout.trim().split("\n").map(BigInt);
    const [secondStart] = second!.stdout.trim().split("\n").map(BigInt);
    expect(secondStart! >= firstEnd!).toBe(true);
  });
});

describe("createLocalExecutor: confinement", () => {
  it("refuses a program path that is a symlink leaving the skill's folder", async () => {
    const cwd = skillFolder();
    const { symlinkSync } = await import("node:fs");
    mkdirSync(join(cwd, "scripts"));
    symlinkSync("/bin/sh", join(cwd, "scripts", "run"));
    const result = await createLocalExecutor().run({ argv: ["scripts/run", "-c", "echo escaped"], cwd });
    expect(result).toMatchObject({
      exitCode: 126,
      stdout: "",
      stderr: "refused: scripts/run resolves outside the skill's folder",
    });
  });

  it("refuses a program in a sibling folder whose name starts with the skill folder's", async () => {
    const cwd = skillFolder();
    mkdirSync(`${cwd}-evil`);
    folders.push(`${cwd}-evil`);
    writeFileSync(`${cwd}-evil/run.sh`, "#!/bin/sh\necho escaped\n");
    chmodSync(`${cwd}-evil/run.sh`, 0o755);
    const program = `../${basename(cwd)}-evil/run.sh`;
    const result = await createLocalExecutor().run({ argv: [program], cwd });
    expect(result).toMatchObject({ exitCode: 126, stderr: `refused: ${program} resolves outside the skill's folder` });
  });

  it("runs a program below a skill folder that ends in a separator (the root, /)", async () => {
    // `folder + sep` made the root `//`, so nothing was ever inside it.
    const script = join(realpathSync(skillFolder({ "run.sh": "#!/bin/sh\necho ran in $(pwd)\n" })), "run.sh");
    const result = await createLocalExecutor().run({ argv: [`.${script}`], cwd: "/" });
    expect(result).toMatchObject({ exitCode: 0, stdout: "ran in /\n", stderr: "" });
  });

  it("refuses to run when the skill's folder is not on this machine", async () => {
    const result = await createLocalExecutor().run({ argv: ["true"], cwd: "/skills/in-a-store/pdf" });
    expect(result).toMatchObject({
      exitCode: 126,
      stderr: "the skill's folder /skills/in-a-store/pdf does not exist on this machine",
    });
  });
});
