// Decision 10: a timeout that kills the whole process tree, capped output, no secrets in the
// environment. Real processes, small timeouts; every process a test starts carries a random
// marker in its command line (`exec -a`), so leftovers are found by scanning /proc and killed.
import { afterEach, describe, expect, it } from "vitest";
import { createLocalExecutor } from "../../src/node.js";
import { Sandbox, killMatching, marker, processesMatching, put, survivorsAfter, within } from "./helpers.js";

const sandbox = new Sandbox();
const marks: string[] = [];
const savedEnv: Record<string, string | undefined> = {};
afterEach(() => {
  for (const mark of marks.splice(0)) killMatching(mark);
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    delete savedEnv[name];
  }
  sandbox.cleanupAll();
});

/** A skill folder with `scripts/<name>` = `body` (bash), and a fresh marker. */
function skillWith(scripts: Record<string, (mark: string) => string>) {
  const mark = marker("SKX");
  marks.push(mark);
  const cwd = sandbox.folder();
  for (const [name, body] of Object.entries(scripts))
    put(cwd, `scripts/${name}`, `#!/bin/bash\n${body(mark)}\n`, 0o755);
  return { cwd, mark };
}

/** Starts a run, counts the marked processes after `peekMs`, then waits (bounded) for the result. */
async function runAndPeek(run: Promise<unknown>, mark: string, peekMs: number) {
  await new Promise((resolve) => setTimeout(resolve, peekMs));
  const seen = processesMatching(mark).length;
  const result = await within(run, 8000, "still running" as const);
  return { seen, result };
}

function setEnv(name: string, value: string) {
  if (!(name in savedEnv)) savedEnv[name] = process.env[name];
  process.env[name] = value;
}

describe("timeouts kill the whole tree, and the run returns in bounded time", () => {
  it("a sleeper (ignoring TERM) is killed at 500 ms and the run returns well under 5 s", async () => {
    const { cwd, mark } = skillWith({
      "sleeper.sh": (mark) => `trap '' TERM INT HUP\nexec -a ${mark}-sleeper sleep 30`,
    });
    const started = performance.now();
    const result = await createLocalExecutor({ timeoutMs: 500 }).run({ argv: ["scripts/sleeper.sh"], cwd });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(await survivorsAfter(mark, 2000)).toEqual([]);
  });

  it("the per-request timeout overrides the executor's", async () => {
    const { cwd, mark } = skillWith({ "sleeper.sh": (mark) => `exec -a ${mark}-sleeper sleep 30` });
    const started = performance.now();
    const result = await createLocalExecutor({ timeoutMs: 60_000 }).run({
      argv: ["scripts/sleeper.sh"],
      cwd,
      timeoutMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.timedOut).toBe(true);
    expect(await survivorsAfter(mark, 2000)).toEqual([]);
  });

  it("a fork storm (2 children per level, depth 6: 127 processes) is killed entirely", async () => {
    const { cwd, mark } = skillWith({
      "storm.sh": (mark) =>
        `d=\${1:-0}\nif [ "$d" -lt 6 ]; then\n  scripts/storm.sh $((d+1)) &\n  scripts/storm.sh $((d+1)) &\nfi\nexec -a ${mark}-storm-$d sleep 30`,
    });
    const run = createLocalExecutor({ timeoutMs: 2500 }).run({ argv: ["scripts/storm.sh"], cwd });
    // While it runs, the storm really is there.
    let peak = 0;
    for (let i = 0; i < 20 && peak < 127; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, processesMatching(mark).length);
    }
    expect(peak).toBeGreaterThan(30);
    const result = await within(run, 8000, "still running" as const);
    expect(result).not.toBe("still running");
    expect((result as { timedOut: boolean }).timedOut).toBe(true);
    expect(await survivorsAfter(mark, 2000)).toEqual([]);
  });

  it("a double fork that stays in the process group is killed", async () => {
    const { cwd, mark } = skillWith({
      "double.sh": (mark) =>
        `( exec -a ${mark}-grandchild sleep 300 & )\n( nohup bash -c 'exec -a ${mark}-nohup sleep 300' & )\nexec -a ${mark}-parent sleep 30`,
    });
    const { seen, result } = await runAndPeek(
      createLocalExecutor({ timeoutMs: 800 }).run({ argv: ["scripts/double.sh"], cwd }),
      mark,
      400,
    );
    expect(seen).toBe(3);
    expect(result).not.toBe("still running");
    expect(await survivorsAfter(mark, 2000)).toEqual([]);
  });

  it("a child that setsid's away while its parent still runs is found and killed", async () => {
    const { cwd, mark } = skillWith({
      "sid.sh": (mark) => `setsid bash -c 'exec -a ${mark}-sid sleep 300' &\nexec -a ${mark}-parent sleep 30`,
    });
    const { seen, result } = await runAndPeek(
      createLocalExecutor({ timeoutMs: 800 }).run({ argv: ["scripts/sid.sh"], cwd }),
      mark,
      400,
    );
    expect(seen).toBe(2);
    expect(result).not.toBe("still running");
    expect(await survivorsAfter(mark, 2000)).toEqual([]);
  });

  // Found by this suite (fixed): a process that leaves the tree and the group (setsid, `set -m`)
  // is found by the run's marker in its environment and killed when the run ends.
  it("no process a script started survives the run, even after setsid or `set -m` and the script's exit", async () => {
    const { cwd, mark } = skillWith({
      "escape-setsid.sh": (mark) =>
        `setsid bash -c 'exec -a ${mark}-setsid sleep 300' >/dev/null 2>&1 </dev/null &\necho started`,
      "escape-jobs.sh": (mark) =>
        `set -m\n( exec -a ${mark}-job sleep 300 ) >/dev/null 2>&1 </dev/null &\necho started`,
    });
    const executor = createLocalExecutor({ timeoutMs: 2000 });
    for (const script of ["scripts/escape-setsid.sh", "scripts/escape-jobs.sh"]) {
      const result = await within(executor.run({ argv: [script], cwd }), 8000, "still running" as const);
      expect(result).not.toBe("still running");
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await survivorsAfter(mark, 1500)).toEqual([]);
  });

  // Found by this suite (fixed): an escaped child holding the pipes cannot keep run() waiting; it
  // resolves shortly after the leader exits and the run's processes are killed.
  it("a run whose escaped child keeps the output pipes open still returns after its timeout", async () => {
    const { cwd, mark } = skillWith({
      "escape-pipe.sh": (mark) => `setsid bash -c 'exec -a ${mark}-pipe sleep 300' &\necho started`,
    });
    const run = createLocalExecutor({ timeoutMs: 500 }).run({ argv: ["scripts/escape-pipe.sh"], cwd });
    try {
      const result = await within(run, 5000, "still running" as const);
      expect(result).not.toBe("still running");
    } finally {
      // Release the pipe so the pending run settles and nothing outlives the test.
      killMatching(mark);
      await within(run, 3000, undefined);
    }
  });
});

describe("output is capped and separated", () => {
  it("a flood on stdout (`yes`) is cut and killed, in bounded time and memory", async () => {
    const cwd = sandbox.folder();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const result = await createLocalExecutor({
      timeoutMs: 10_000,
      maxOutputBytes: 64 * 1024,
      killAfterOutputBytes: 1024 * 1024,
    }).run({ argv: ["yes"], cwd });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(result.killedReason).toMatch(/more than 1048576 bytes/);
    expect(result.timedOut).toBe(false);
    expect(result.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(64 * 1024);
  });

  it("a flood on stderr, with default output limits, is cut too", async () => {
    const { cwd } = skillWith({ "flood.sh": () => "exec yes ERRFLOOD 1>&2" });
    const started = performance.now();
    const result = await createLocalExecutor({ timeoutMs: 20_000 }).run({ argv: ["scripts/flood.sh"], cwd });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.killedReason).toBeDefined();
    expect(result.stderrTruncated).toBe(true);
    expect(Buffer.byteLength(result.stderr)).toBeLessThanOrEqual(64 * 1024);
    expect(result.stdout).toBe("");
  });

  it("stdout and stderr are kept apart; exit codes and signals are reported", async () => {
    const { cwd } = skillWith({
      "both.sh": () => "echo OUT-1\necho ERR-1 >&2\necho OUT-2\nexit 7",
      "self-kill.sh": () => "echo before\nkill -9 $$",
      "closed.sh": (mark) => `exec >&- 2>&-\nexec -a ${mark}-closed sleep 30`,
    });
    const executor = createLocalExecutor({ timeoutMs: 800 });
    const both = await executor.run({ argv: ["scripts/both.sh"], cwd });
    expect(both).toMatchObject({ exitCode: 7, stdout: "OUT-1\nOUT-2\n", stderr: "ERR-1\n", timedOut: false });
    const killed = await executor.run({ argv: ["scripts/self-kill.sh"], cwd });
    expect(killed.exitCode).toBeNull();
    expect(killed.signal).toBe("SIGKILL");
    const closed = await within(executor.run({ argv: ["scripts/closed.sh"], cwd }), 5000, "still running" as const);
    expect(closed).toMatchObject({ timedOut: true });
  });

  it("a missing command, a missing script and a missing folder give clear results, not exceptions", async () => {
    const cwd = sandbox.folder();
    const executor = createLocalExecutor({ timeoutMs: 2000 });
    const missing = await executor.run({ argv: ["skillset-no-such-command-9f1"], cwd });
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toMatch(/not found/);
    const script = await executor.run({ argv: ["scripts/none.sh"], cwd });
    expect(script.exitCode).not.toBe(0);
    expect(script.stderr).toMatch(/no such file|not found/i);
    const folder = await executor.run({ argv: ["true"], cwd: `${cwd}/missing-folder` });
    expect(folder.exitCode).not.toBe(0);
  });

  // Found by this suite (fixed): spawn's synchronous errors become a result, never a rejection.
  it("run() returns a result (never rejects) for an empty program or a NUL byte in an argument", async () => {
    const cwd = sandbox.folder();
    const executor = createLocalExecutor({ timeoutMs: 2000 });
    for (const argv of [[""], ["echo", "a\u0000b"]]) {
      const result = await executor.run({ argv, cwd });
      expect(result.exitCode, JSON.stringify(argv)).not.toBe(0);
    }
  });
});

describe("environment", () => {
  it("secrets of this process are not visible to scripts; PATH is; passEnv adds exactly the named variable", async () => {
    const secrets = {
      OPENAI_API_KEY: marker("sk-"),
      ANTHROPIC_API_KEY: marker("ak-"),
      AWS_SECRET_ACCESS_KEY: marker("aws-"),
      GITHUB_TOKEN: marker("ghp-"),
      SKILLSET_SEC_PASSED: marker("pass-"),
    };
    for (const [name, value] of Object.entries(secrets)) setEnv(name, value);
    const cwd = sandbox.folder();
    const plain = await createLocalExecutor({ timeoutMs: 5000 }).run({ argv: ["env"], cwd });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toMatch(/^PATH=/m);
    for (const [name, value] of Object.entries(secrets)) {
      expect(plain.stdout).not.toContain(value);
      expect(plain.stdout).not.toMatch(new RegExp(`^${name}=`, "m"));
    }
    const passing = await createLocalExecutor({ timeoutMs: 5000, passEnv: ["SKILLSET_SEC_PASSED"] }).run({
      argv: ["env"],
      cwd,
    });
    expect(passing.stdout).toContain(`SKILLSET_SEC_PASSED=${secrets.SKILLSET_SEC_PASSED}`);
    expect(passing.stdout).not.toContain(secrets.OPENAI_API_KEY);
  });
});

describe("concurrency", () => {
  const timestamps = () =>
    skillWith({ "stamp.sh": () => 'echo "start $(date +%s%N)"\nsleep 0.4\necho "end $(date +%s%N)"' });
  const interval = (stdout: string) => {
    const start = Number(/start (\d+)/.exec(stdout)![1]) / 1e6;
    const end = Number(/end (\d+)/.exec(stdout)![1]) / 1e6;
    return { start, end };
  };
  const maxOverlap = (intervals: Array<{ start: number; end: number }>) =>
    Math.max(...intervals.map((a) => intervals.filter((b) => b.start <= a.start && a.start < b.end).length));

  it("with maxConcurrent 1, runs do not overlap", async () => {
    const { cwd } = timestamps();
    const executor = createLocalExecutor({ timeoutMs: 5000, maxConcurrent: 1 });
    const results = await Promise.all([0, 1, 2].map(() => executor.run({ argv: ["scripts/stamp.sh"], cwd })));
    expect(maxOverlap(results.map((result) => interval(result.stdout)))).toBe(1);
  });

  it("control: with maxConcurrent 2, two runs do overlap, and five never exceed two at once", async () => {
    const { cwd } = timestamps();
    const executor = createLocalExecutor({ timeoutMs: 5000, maxConcurrent: 2 });
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => executor.run({ argv: ["scripts/stamp.sh"], cwd })));
    expect(maxOverlap(results.map((result) => interval(result.stdout)))).toBe(2);
  });
});
