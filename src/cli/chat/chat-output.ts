import type { Colors } from "../terminal.js";
import type { ActivityLine } from "./activity.js";

/** Where a chat writes: the answers on stdout, skill activity and errors on stderr. */
export interface ChatOutput {
  /** A piece of an answer, as it streams. */
  text(piece: string): void;
  /** Ends the answer's current line, if anything is on it. */
  endLine(): void;
  /** A whole line of a command's output (`/skills`, `/loaded`). */
  print(line: string): void;
  /** A line of skill or tool activity. */
  activity(line: ActivityLine): void;
  /** An error, one line, `skillset: <message>`. */
  error(message: string): void;
}

/** Something text is written to: a stream, or a test's buffer. */
export interface TextSink {
  write(text: string): unknown;
}

/** Writes a chat to `stdout` and `stderr`; `sameScreen` when both are the one terminal. */
export function createChatOutput(stdout: TextSink, stderr: TextSink, color: Colors, sameScreen: boolean): ChatOutput {
  // Whether the answer's current line has text: a line on stderr must not land in its middle.
  let midLine = false;
  const endLine = () => {
    if (!midLine) return;
    stdout.write("\n");
    midLine = false;
  };
  const before = () => {
    if (sameScreen) endLine();
  };
  return {
    text(piece) {
      stdout.write(piece);
      midLine = !piece.endsWith("\n");
    },
    endLine,
    print(line) {
      endLine();
      stdout.write(`${line}\n`);
    },
    activity({ text, level }) {
      before();
      const styled =
        level === "info"
          ? color.dim(`· ${text}`)
          : level === "warn"
            ? color.yellow(`! ${text}`)
            : color.red(`! ${text}`);
      stderr.write(`${styled}\n`);
    },
    error(message) {
      before();
      stderr.write(`${color.red(`skillset: ${message}`)}\n`);
    },
  };
}
