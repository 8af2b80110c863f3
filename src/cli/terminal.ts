/** Where a command writes: stdout for results, stderr for diagnostics and progress. */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is an interactive terminal (progress is shown only then). */
  interactive: boolean;
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
  const enabled = env.FORCE_COLOR ? env.FORCE_COLOR !== "0" : Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
  const style = (open: number, close: number) => (text: string) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { bold: style(1, 22), dim: style(2, 22), red: style(31, 39), green: style(32, 39), yellow: style(33, 39) };
}

/** The process's own terminal. */
export function processTerminal(): Terminal {
  return {
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    interactive: Boolean(process.stderr.isTTY),
    color: colorsFor(process.stdout),
  };
}

/**
 * Runs `work`, showing `label` on stderr only if it takes longer than `delayMs` and stderr is
 * a terminal, so quick scans and pipes stay silent.
 */
export async function withProgress<T>(terminal: Terminal, label: string, work: () => Promise<T>, delayMs = 300): Promise<T> {
  if (!terminal.interactive) return work();
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    process.stderr.write(`${label}…`);
  }, delayMs);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    if (shown) process.stderr.write("\r\x1b[K");
  }
}
