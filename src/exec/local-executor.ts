import { spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { isInsideFolder } from "../fs/path-inside.js";
import { killTree, RUN_MARKER } from "./kill-process-tree.js";
import type { ScriptExecutor, ScriptRequest, ScriptResult } from "./script-executor.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

/** Environment variables passed to scripts by default; everything else (API keys...) is not. */
export const DEFAULT_ENV_ALLOW_LIST = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TZ",
  "USER",
  "LOGNAME",
] as const;

/** Options of {@link createLocalExecutor}. */
export interface LocalExecutorOptions {
  /** Kill the run, with every process it started, after this long. @default 60000 */
  timeoutMs?: number;
  /** Bytes of stdout and of stderr kept; the rest is drained and dropped. @default 65536 */
  maxOutputBytes?: number;
  /** Kill a run that writes more than this in all (a flood of output). @default 10485760 */
  killAfterOutputBytes?: number;
  /** Names of further variables to pass from this process's environment. @default [] */
  passEnv?: string[];
  /** Variables to set for every run. @default {} */
  env?: Record<string, string>;
  /** Runs at a time; more wait their turn. @default 2 */
  maxConcurrent?: number;
}

const LOCAL_EXECUTOR_OPTIONS = {
  timeoutMs: true,
  maxOutputBytes: true,
  killAfterOutputBytes: true,
  passEnv: true,
  env: true,
  maxConcurrent: true,
} as const satisfies KnownOptions<LocalExecutorOptions>;

/**
 * Runs commands as local processes: no shell, the skill's folder as working directory, an
 * environment built from an allow-list, separate capped stdout and stderr, and a timeout that
 * kills the whole process tree (the process group, and any descendant that left it).
 */
export function createLocalExecutor(options: LocalExecutorOptions = {}): ScriptExecutor {
  refuseUnknownOptions("createLocalExecutor", options, LOCAL_EXECUTOR_OPTIONS);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxOutput = options.maxOutputBytes ?? 64 * 1024;
  const killAfter = options.killAfterOutputBytes ?? 10 * 1024 * 1024;
  const maxConcurrent = options.maxConcurrent ?? 2;
  const env: Record<string, string> = {};
  for (const name of [...DEFAULT_ENV_ALLOW_LIST, ...(options.passEnv ?? [])]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, { PYTHONDONTWRITEBYTECODE: "1" }, options.env ?? {});

  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = () =>
    running < maxConcurrent
      ? Promise.resolve(void running++)
      : new Promise<void>((resolve) => waiting.push(() => resolve(void running++)));
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  return {
    specificationVersion: "v1",
    async run(request) {
      await acquire();
      try {
        return await runProcess(request, {
          timeoutMs: request.timeoutMs ?? timeoutMs,
          maxOutput,
          killAfter,
          env: { ...env, SKILL_DIR: request.cwd },
        });
      } finally {
        release();
      }
    },
  };
}

interface RunLimits {
  timeoutMs: number;
  maxOutput: number;
  killAfter: number;
  env: Record<string, string>;
}

// After the leader exits, how long to wait for its output pipes to close before giving up on
// them (a process that escaped the kill could hold them open forever).
const CLOSE_GRACE_MS = 200;

function runProcess(request: ScriptRequest, limits: RunLimits): Promise<ScriptResult> {
  const started = performance.now();
  const failed = (exitCode: number, reason: string): ScriptResult => ({
    exitCode,
    stdout: "",
    stderr: reason,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    durationMs: performance.now() - started,
  });
  const refusal = programOutsideSkill(request);
  if (refusal) return Promise.resolve(failed(126, refusal));
  // Every process of this run inherits the marker, so one that leaves the process group and
  // the process tree (setsid, double fork) is still found and killed.
  const marker = `${RUN_MARKER}=${randomUUID()}`;
  const [program, ...args] = request.argv;
  let child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  try {
    // detached: the child leads a new process group, so the whole tree can be killed at once.
    child = spawn(program!, args, {
      cwd: request.cwd,
      env: { ...limits.env, [RUN_MARKER]: marker.slice(RUN_MARKER.length + 1) },
      detached: true,
      shell: false,
      stdio: [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    }) as typeof child;
  } catch (error) {
    return Promise.resolve(
      failed(126, `cannot start ${JSON.stringify(program)}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  return new Promise((resolve) => {
    const stdout = new CappedBuffer(limits.maxOutput);
    const stderr = new CappedBuffer(limits.maxOutput);
    let timedOut = false;
    let killedReason: string | undefined;
    let spawnError: Error | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const stop = () => killTree(child.pid, marker);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, limits.timeoutMs);
    const onData = (buffer: CappedBuffer) => (chunk: Buffer) => {
      buffer.push(chunk);
      if (!killedReason && stdout.total + stderr.total > limits.killAfter) {
        killedReason = `it wrote more than ${limits.killAfter} bytes of output`;
        stop();
      }
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The leader is gone; make sure nothing it started lives on.
      stop();
      child.stdout.destroy();
      child.stderr.destroy();
      if (spawnError) {
        const reason =
          (spawnError as NodeJS.ErrnoException).code === "ENOENT"
            ? `command not found: ${program}`
            : spawnError.message;
        resolve(failed(127, reason));
        return;
      }
      resolve({
        exitCode: exit?.code ?? null,
        ...(exit?.signal ? { signal: exit.signal } : {}),
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        ...(killedReason ? { killedReason } : {}),
        durationMs: performance.now() - started,
      });
    };
    // A command that exits without reading its input must not fail the run (EPIPE).
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(request.stdin);
    child.stdout.on("data", onData(stdout));
    child.stderr.on("data", onData(stderr));
    child.on("error", (error) => {
      spawnError = error;
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Kill what the leader left behind at once, so they release the pipes.
      stop();
      setTimeout(finish, CLOSE_GRACE_MS).unref();
    });
    child.on("close", finish);
  });
}

// A program given by path must be a regular file that really is inside the skill's folder: a
// symlink `scripts/run -> /bin/sh` would otherwise run whatever it points at.
function programOutsideSkill(request: ScriptRequest): string | undefined {
  const program = request.argv[0]!;
  let folder: string;
  try {
    folder = realpathSync(request.cwd);
  } catch {
    return `the skill's folder ${request.cwd} does not exist on this machine`;
  }
  if (!program.includes("/")) return undefined;
  let target: string;
  try {
    target = realpathSync(resolve(request.cwd, program));
  } catch {
    return `no such file: ${program}`;
  }
  if (target === folder || !isInsideFolder(folder, target))
    return `refused: ${program} resolves outside the skill's folder`;
  if (!statSync(target).isFile()) return `refused: ${program} is not a regular file`;
  return undefined;
}

class CappedBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.kept;
    if (chunk.length > room) this.truncated = true;
    const kept = chunk.subarray(0, room);
    this.chunks.push(kept);
    this.kept += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
