import { withoutReordering } from "../core/text/safe-text.js";

/** Where a command writes: stdout for results, stderr for diagnostics and progress. */
export interface Terminal {
  /** Writes a result line (a newline is added when missing). */
  out(text: string): void;
  /** Writes a diagnostic line (a newline is added when missing). */
  err(text: string): void;
  /** Writes to stderr as is: a progress line and the escape code that clears it. */
  status(text: string): void;
  /** True when stderr is an interactive terminal (progress is shown only then). */
  interactive: boolean;
  /** How long work runs before its progress line shows. @default 300 */
  progressDelayMs?: number;
  color: Colors;
}

/** Styling that collapses to plain text when colour is off. */
export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

/** Colour only on a terminal, never with `NO_COLOR` set (https://no-color.org) or `TERM=dumb`. */
function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Colors {
  const enabled = env.FORCE_COLOR
    ? env.FORCE_COLOR !== "0"
    : Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
  const style = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return { bold: style(1, 22), dim: style(2, 22), red: style(31, 39), green: style(32, 39), yellow: style(33, 39) };
}

/**
 * A writer for `stream` that goes quiet once the reader has gone (`skillset list | head -1`).
 * Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, reported later as an
 * `error` event that would crash the process with a stack trace. Instead, the rest of the
 * output is dropped and the command ends with the status it would have had: the reader took
 * what it wanted, which is not a failure (so `set -o pipefail` scripts pass), and
 * `skillset validate … | head` still exits 1 when a skill is invalid.
 */
function pipeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    // Any other write failure (a full disk, say) means the output is incomplete.
    process.exitCode = 1;
  });
  return (text) => {
    if (!closed && !stream.destroyed) stream.write(text);
  };
}

/** The process's own terminal. */
export function processTerminal(): Terminal {
  const writeOut = pipeWriter(process.stdout);
  const writeErr = pipeWriter(process.stderr);
  return {
    // Whatever a command prints from skills, bidi overrides cannot reorder it on the screen.
    out: (text) => writeOut(withoutReordering(text.endsWith("\n") ? text : `${text}\n`)),
    err: (text) => writeErr(withoutReordering(text.endsWith("\n") ? text : `${text}\n`)),
    status: writeErr,
    interactive: Boolean(process.stderr.isTTY),
    progressDelayMs: progressDelay(process.env.SKILLSET_PROGRESS_DELAY_MS),
    color: colorsFor(process.stdout),
  };
}

const DEFAULT_PROGRESS_DELAY_MS = 300;

// SKILLSET_PROGRESS_DELAY_MS: milliseconds before a progress line shows; anything else, the default.
function progressDelay(value: string | undefined): number {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : DEFAULT_PROGRESS_DELAY_MS;
}

/**
 * Runs `work`, showing `label` on stderr only if it takes longer than `delayMs` and stderr is
 * a terminal, so quick scans and pipes stay silent. The timer can fire only while `work`
 * waits, so it relies on discovery yielding to the event loop.
 */
export async function withProgress<T>(
  terminal: Terminal,
  label: string,
  work: () => Promise<T>,
  delayMs = terminal.progressDelayMs ?? DEFAULT_PROGRESS_DELAY_MS,
): Promise<T> {
  if (!terminal.interactive) return work();
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    terminal.status(`${label}…`);
  }, delayMs);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    // Back to the start of the line and erase it, so the results print where the label was.
    if (shown) terminal.status("\r\x1b[K");
  }
}
