import type { KnownOptions } from "../errors/known-options.js";

/** The keys of the `{ executor, defaultAllowedCommands }` options that run commands (scripts, dynamic context, hooks). */
export const SCRIPT_RULES_OPTIONS = { executor: true, defaultAllowedCommands: true } as const satisfies KnownOptions<{
  executor: ScriptExecutor;
  defaultAllowedCommands?: readonly string[];
}>;

/** One command to run, already split into arguments and checked against the allow-list. */
export interface ScriptRequest {
  argv: readonly string[];
  /** The skill's folder: the working directory. */
  cwd: string;
  /** Overrides the executor's timeout for this run. */
  timeoutMs?: number;
  /** Text written to the command's standard input, which is then closed; without it stdin is empty. */
  stdin?: string;
}

/** What a run produced. Output is capped; the flags say when it was cut. */
export interface ScriptResult {
  /** The exit code, or `null` when the process was killed by a signal. */
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** True when the run hit its timeout and was killed, with everything it started. */
  timedOut: boolean;
  /** Set when the executor stopped the run for another reason, e.g. too much output. */
  killedReason?: string;
  durationMs: number;
}

/**
 * Runs skill scripts. Implementations: the local executor in `skillset/node`, and a
 * deepagents sandbox executor. An executor never uses a shell.
 */
export interface ScriptExecutor {
  readonly specificationVersion: "v1";
  run(request: ScriptRequest): Promise<ScriptResult>;
}

/** The text a tool shows the model for a result. */
export function formatScriptResult(command: string, result: ScriptResult): string {
  const status = result.timedOut
    ? "timed out and was killed"
    : result.killedReason
      ? `was killed: ${result.killedReason}`
      : result.exitCode === null
        ? `was killed by ${result.signal ?? "a signal"}`
        : `exited with code ${result.exitCode}`;
  const lines = [`$ ${command}`, `(${status} after ${Math.round(result.durationMs)} ms)`];
  const stream = (name: string, text: string, truncated: boolean) => {
    if (text === "" && !truncated) return;
    lines.push(`--- ${name}${truncated ? " (cut: output limit reached)" : ""} ---`, text.replace(/\n$/, ""));
  };
  stream("stdout", result.stdout, result.stdoutTruncated);
  stream("stderr", result.stderr, result.stderrTruncated);
  if (result.stdout === "" && result.stderr === "") lines.push("(no output)");
  return lines.join("\n");
}
