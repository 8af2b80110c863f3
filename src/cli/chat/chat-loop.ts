import { createInterface } from "node:readline";
import type { ChatSession } from "./chat-session.js";

/** The streams a chat reads from and prompts on. */
export interface ChatInput {
  input: NodeJS.ReadableStream;
  /** Where the prompt goes; only used on a terminal. */
  output: NodeJS.WritableStream;
  /** A person at a terminal: prompt, line editing, Ctrl-C at the prompt. Otherwise one message per line. */
  interactive: boolean;
  /** Says how to leave, after a Ctrl-C at an empty prompt. */
  notice(text: string): void;
}

/** How a chat ended: how many lines failed, and whether an interrupt (not `/exit` or the input's end) ended it. */
export interface ChatEnd {
  failures: number;
  interrupted: boolean;
}

const PROMPT = "> ";

/**
 * Reads the user's lines one at a time and hands each to the session; lines typed while an
 * answer streams wait their turn. Ctrl-C (or SIGINT) stops the answer being written, not the
 * chat; at a terminal's empty prompt, a second Ctrl-C in a row leaves, as Node's REPL does.
 */
export async function runChatLoop(session: ChatSession, io: ChatInput): Promise<ChatEnd> {
  const lines = createInterface({
    input: io.input,
    ...(io.interactive ? { output: io.output, terminal: true, prompt: PROMPT } : { terminal: false }),
  });
  let answering: AbortController | undefined;
  let warned = false;
  let interrupted = false;

  const onInterrupt = () => {
    if (answering) {
      answering.abort();
      return;
    }
    if (io.interactive && (lines.line.length > 0 || !warned)) {
      // Leave what was typed on the screen and drop it, or say how to leave; then a fresh prompt.
      const hadText = lines.line.length > 0;
      lines.write(null, { ctrl: true, name: "e" });
      io.output.write("\n");
      if (hadText) lines.write(null, { ctrl: true, name: "u" });
      else io.notice("(To exit, press Ctrl-C again or Ctrl-D, or type /exit)");
      warned = !hadText;
      prompt();
      return;
    }
    interrupted = true;
    lines.close();
  };
  lines.on("SIGINT", onInterrupt);
  process.on("SIGINT", onInterrupt);

  let failures = 0;
  // Whether the prompt is on the screen, waiting: leaving then must end its line.
  let prompting = false;
  const prompt = () => {
    lines.prompt();
    prompting = true;
  };
  try {
    if (io.interactive) prompt();
    for await (const line of lines) {
      prompting = false;
      warned = false;
      answering = new AbortController();
      const outcome = await session.handle(line, answering.signal);
      answering = undefined;
      if (outcome === "exit") break;
      if (outcome === "failed") failures++;
      if (io.interactive) prompt();
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    lines.close();
    if (prompting) io.output.write("\n");
  }
  return { failures, interrupted };
}
