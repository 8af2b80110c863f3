import type { ScriptExecutor, ScriptResult } from "./script-executor.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

/** The part of a deepagents sandbox backend the executor uses. */
export interface SandboxBackend {
  execute(
    command: string,
  ):
    | { output: string; exitCode: number | null; truncated?: boolean }
    | Promise<{ output: string; exitCode: number | null; truncated?: boolean }>;
  /** Writes files into the sandbox; used for a standard input too large for a command line. */
  uploadFiles?(
    files: Array<[string, Uint8Array]>,
  ): Promise<Array<{ path: string; error?: string | null }>> | Array<{ path: string; error?: string | null }>;
}

// The sandbox runs the command line as one argument (at most 128 KiB on Linux): a standard input
// quoted into it stays well below that, and a larger one goes through a file.
const MAX_INLINE_STDIN_BYTES = 96 * 1024;

/** Options of {@link createSandboxExecutor}. */
export interface SandboxExecutorOptions {
  /** Kill the command after this many seconds (with coreutils' `timeout` in the sandbox). @default 60 */
  timeoutSeconds?: number;
  /** Characters of output kept. @default 65536 */
  maxOutputChars?: number;
}

const SANDBOX_EXECUTOR_OPTIONS = {
  timeoutSeconds: true,
  maxOutputChars: true,
} as const satisfies KnownOptions<SandboxExecutorOptions>;

/**
 * Runs commands through a deepagents sandbox backend's `execute`, for skills that live in the
 * sandbox. The sandbox takes a shell command line, so every argument is single-quoted: the
 * command the allow-list approved is exactly what runs, with no expansion. Output arrives as
 * one stream (the sandbox merges stdout and stderr).
 */
export function createSandboxExecutor(backend: SandboxBackend, options: SandboxExecutorOptions = {}): ScriptExecutor {
  refuseUnknownOptions("createSandboxExecutor", options, SANDBOX_EXECUTOR_OPTIONS);
  const timeoutSeconds = options.timeoutSeconds ?? 60;
  const maxOutput = options.maxOutputChars ?? 64 * 1024;
  return {
    specificationVersion: "v1",
    async run(request): Promise<ScriptResult> {
      const started = performance.now();
      const seconds = Math.max(1, Math.ceil((request.timeoutMs ?? timeoutSeconds * 1000) / 1000));
      const input = await stdinFor(backend, request.stdin);
      if ("refused" in input)
        return {
          exitCode: null,
          stdout: "",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          timedOut: false,
          killedReason: input.refused,
          durationMs: performance.now() - started,
        };
      const line = `cd ${shellQuote(request.cwd)} && ${input.before}timeout -s KILL ${seconds} ${request.argv.map(shellQuote).join(" ")}${input.after}`;
      const response = await backend.execute(line);
      // deepagents' local shell appends "Exit code: N" (the code is reported separately), and
      // says "<no output>" for none.
      const printed = response.output.replace(/\n?Exit code: -?\d+\s*$/, "");
      const output = printed === "<no output>" ? "" : printed;
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

// How the command line feeds the standard input: piped from `printf`, or redirected from an
// uploaded file that is removed after the run (keeping the command's exit code).
async function stdinFor(
  backend: SandboxBackend,
  stdin: string | undefined,
): Promise<{ before: string; after: string } | { refused: string }> {
  if (stdin === undefined) return { before: "", after: " < /dev/null" };
  const quoted = shellQuote(stdin);
  if (new TextEncoder().encode(quoted).byteLength <= MAX_INLINE_STDIN_BYTES)
    return { before: `printf '%s' ${quoted} | `, after: "" };
  const bytes = new TextEncoder().encode(stdin);
  if (!backend.uploadFiles)
    return {
      refused: `its standard input (${bytes.byteLength} bytes) is larger than this sandbox takes on a command line, and the sandbox cannot upload files`,
    };
  const path = `/tmp/skillset-stdin-${crypto.randomUUID()}`;
  const [uploaded] = await backend.uploadFiles([[path, bytes]]);
  if (!uploaded || uploaded.error)
    return { refused: `its standard input could not be uploaded to the sandbox: ${uploaded?.error ?? "no answer"}` };
  return { before: "", after: ` < ${shellQuote(path)}; status=$?; rm -f ${shellQuote(path)}; exit $status` };
}

/** Quotes one argument for a POSIX shell: `'...'`, with `'` written as `'\''`. */
export function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", "'\\''")}'`;
}
