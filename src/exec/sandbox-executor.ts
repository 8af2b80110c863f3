import type { ScriptExecutor, ScriptResult } from "./script-executor.js";

/** The part of a deepagents sandbox backend the executor uses. */
export interface SandboxBackend {
  execute(command: string): { output: string; exitCode: number | null; truncated?: boolean } | Promise<{ output: string; exitCode: number | null; truncated?: boolean }>;
}

/** Options of {@link createSandboxExecutor}. */
export interface SandboxExecutorOptions {
  /** Kill the command after this many seconds (with coreutils' `timeout` in the sandbox). @default 60 */
  timeoutSeconds?: number;
  /** Characters of output kept. @default 65536 */
  maxOutputChars?: number;
}

/**
 * Runs commands through a deepagents sandbox backend's `execute`, for skills that live in the
 * sandbox. The sandbox takes a shell command line, so every argument is single-quoted: the
 * command the allow-list approved is exactly what runs, with no expansion. Output arrives as
 * one stream (the sandbox merges stdout and stderr).
 */
export function createSandboxExecutor(backend: SandboxBackend, options: SandboxExecutorOptions = {}): ScriptExecutor {
  const timeoutSeconds = options.timeoutSeconds ?? 60;
  const maxOutput = options.maxOutputChars ?? 64 * 1024;
  return {
    specificationVersion: "v1",
    async run(request): Promise<ScriptResult> {
      const started = performance.now();
      const seconds = Math.max(1, Math.ceil((request.timeoutMs ?? timeoutSeconds * 1000) / 1000));
      const line = `cd ${shellQuote(request.cwd)} && timeout -s KILL ${seconds} ${request.argv.map(shellQuote).join(" ")}`;
      const response = await backend.execute(line);
      // deepagents' local shell appends "Exit code: N"; the code is reported separately.
      const output = response.output.replace(/\n?Exit code: -?\d+\s*$/, "");
      const timedOut = response.exitCode === 137;
      return {
        exitCode: timedOut ? null : response.exitCode,
        ...(timedOut ? { signal: "SIGKILL" } : {}),
        stdout: output.slice(0, maxOutput),
        stderr: "",
        stdoutTruncated: output.length > maxOutput || response.truncated === true,
        stderrTruncated: false,
        timedOut,
        durationMs: performance.now() - started,
      };
    },
  };
}

/** Quotes one argument for a POSIX shell: `'...'`, with `'` written as `'\''`. */
export function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", "'\\''")}'`;
}
