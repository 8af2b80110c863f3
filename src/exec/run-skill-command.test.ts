import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ALLOWED_COMMANDS } from "./command-allow-list.js";
import { createLocalExecutor } from "./local-executor.js";
import { createSkillCommandRunner, runSkillCommand } from "./run-skill-command.js";
import type { ScriptExecutor, ScriptRequest } from "./script-executor.js";

let skillDir: string;

beforeAll(() => {
  skillDir = mkdtempSync(join(tmpdir(), "skillset-run-command-"));
  mkdirSync(join(skillDir, "scripts"));
  const script = (name: string, body: string) =>
    writeFileSync(join(skillDir, "scripts", name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  script("args.sh", `printf '[%s]' "$@"; printf '\\n'; printf 'cwd=%s\\n' "$(pwd)"`);
  script("fail.sh", `echo partial; echo "it broke" >&2; exit 3`);
  script("slow.sh", "sleep 10");
  script("big.sh", `head -c 5000 /dev/zero | tr '\\0' 'z'`);
  script("noisy.sh", `echo progress >&2; echo result`);
});
afterAll(() => rmSync(skillDir, { recursive: true, force: true }));

/** The real local executor, recording what it was asked to run. */
function recordingExecutor(options: Parameters<typeof createLocalExecutor>[0] = {}) {
  const inner = createLocalExecutor(options);
  const requests: ScriptRequest[] = [];
  const executor: ScriptExecutor = {
    specificationVersion: "v1",
    run: (request) => {
      requests.push(request);
      return inner.run(request);
    },
  };
  return { executor, requests };
}

describe("runSkillCommand", () => {
  it("runs an allowed command in the skill's folder, without a shell", async () => {
    const { executor, requests } = recordingExecutor();
    const outcome = await runSkillCommand({
      command: `scripts/args.sh "two words" '$HOME'`,
      skillDir,
      allowedCommands: DEFAULT_ALLOWED_COMMANDS,
      executor,
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.argv).toEqual(["scripts/args.sh", "two words", "$HOME"]);
    expect(outcome.result.exitCode).toBe(0);
    expect(outcome.result.stdout).toBe(`[two words][$HOME]\ncwd=${skillDir}\n`);
    expect(requests).toEqual([{ argv: ["scripts/args.sh", "two words", "$HOME"], cwd: skillDir }]);
  });

  it("refuses shell syntax with the parser's reason, running nothing", async () => {
    const { executor, requests } = recordingExecutor();
    expect(
      await runSkillCommand({ command: "scripts/args.sh; id", skillDir, allowedCommands: ["*"], executor }),
    ).toEqual({
      ok: false,
      reason:
        "shell syntax is not supported: ';' (command separator). Run one program with its arguments; no shell is involved",
    });
    expect(requests).toEqual([]);
  });

  it("refuses a program the allow-list does not name, naming the program and the list", async () => {
    const { executor, requests } = recordingExecutor();
    expect(
      await runSkillCommand({
        command: "curl example.com",
        skillDir,
        allowedCommands: DEFAULT_ALLOWED_COMMANDS,
        executor,
      }),
    ).toEqual({
      ok: false,
      reason: "'curl' is not allowed (allowed: scripts/*)",
    });
    expect(
      await runSkillCommand({
        command: "git status",
        skillDir,
        allowedCommands: ["Bash(npm:*)", "Read"],
        executor,
        skillName: "demo",
      }),
    ).toEqual({
      ok: false,
      reason: "'git' is not allowed for skill 'demo' (allowed: Bash(npm:*), Read)",
    });
    expect(await runSkillCommand({ command: "scripts/args.sh", skillDir, allowedCommands: [], executor })).toEqual({
      ok: false,
      reason: "'scripts/args.sh' is not allowed (allowed: nothing)",
    });
    expect(requests).toEqual([]);
  });

  it("passes a timeout to the executor", async () => {
    const { executor, requests } = recordingExecutor();
    const outcome = await runSkillCommand({
      command: "scripts/slow.sh",
      skillDir,
      allowedCommands: DEFAULT_ALLOWED_COMMANDS,
      executor,
      timeoutMs: 200,
    });
    expect(requests).toEqual([{ argv: ["scripts/slow.sh"], cwd: skillDir, timeoutMs: 200 }]);
    expect(outcome.ok && outcome.result.timedOut).toBe(true);
  });
});

describe("createSkillCommandRunner", () => {
  const runner = (options: Parameters<typeof createLocalExecutor>[0] = {}, timeoutMs?: number) =>
    createSkillCommandRunner({
      skillDir,
      allowedCommands: DEFAULT_ALLOWED_COMMANDS,
      executor: createLocalExecutor(options),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });

  it("gives stdout of a successful run, without its stderr", async () => {
    expect(await runner()("scripts/noisy.sh")).toEqual({ ok: true, output: "result\n" });
  });

  it("reports a refusal as not run", async () => {
    expect(await runner()("rm -rf scripts")).toEqual({
      ok: false,
      reason: "refused: 'rm' is not allowed (allowed: scripts/*)",
    });
  });

  it("reports a failing run with its exit code and stderr", async () => {
    expect(await runner()("scripts/fail.sh")).toEqual({ ok: false, ran: true, reason: "exited with code 3: it broke" });
  });

  it("reports a run that timed out", async () => {
    const result = await runner({}, 200)("scripts/slow.sh");
    expect(result).toEqual({
      ok: false,
      ran: true,
      reason: expect.stringMatching(/^timed out after \d+ ms and was killed$/),
    });
  });

  it("notes output the executor cut", async () => {
    expect(await runner({ maxOutputBytes: 100 })("scripts/big.sh")).toEqual({
      ok: true,
      output: `${"z".repeat(100)}\n[output cut by the executor's limit]`,
    });
  });

  it("reports a run killed for writing too much", async () => {
    expect(await runner({ maxOutputBytes: 10, killAfterOutputBytes: 1000 })("scripts/big.sh")).toEqual({
      ok: false,
      ran: true,
      reason: "it was killed: it wrote more than 1000 bytes of output",
    });
  });
});
