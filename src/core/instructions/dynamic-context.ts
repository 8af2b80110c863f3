// Running the dynamic-context commands of one rendering, within its limits, and turning every
// outcome (output, refusal, failure, exception) into text for the model.
import type { DynamicCommandResult, DynamicCommandRunner } from "../../exec/dynamic-command.js";
import { withoutControlCharacters } from "../text/safe-text.js";
import type { PlaceholderMatcher } from "./skill-arguments.js";

/** The most characters one command may insert; the rest is cut with a note. */
export const MAX_COMMAND_OUTPUT_CHARS = 10_000;
/** The most characters all commands of one rendering may insert together. */
export const MAX_DYNAMIC_CONTEXT_CHARS = 50_000;
/** The most commands one rendering runs; later ones are reported as not run. */
export const MAX_DYNAMIC_COMMANDS = 32;

/** Why a command was not run when the host has no dynamic context: `[dynamic context not run: `cmd` — <this>]`. */
export const DYNAMIC_CONTEXT_OFF = "dynamic context is off for this agent";

/** The note that replaces nothing: a ```` ```! ```` block opened on `line` is never closed. */
export function unclosedBlockNote(line: number): string {
  return `[dynamic context not run: the \`\`\`! block that opens on line ${line} is not closed]\n`;
}

/**
 * Runs the commands of one rendering, one at a time, and counts against its limits. `matcher`
 * finds the placeholders a command may not contain (the rendering's own matcher).
 */
export class DynamicContextRunner {
  private ran = 0;
  private inserted = 0;

  constructor(
    private readonly runCommand: DynamicCommandRunner | undefined,
    private readonly matcher: PlaceholderMatcher,
  ) {}

  /** The text that replaces the command `written`: its cleaned, capped output or a note why there is none. */
  async run(written: string): Promise<string> {
    const notRun = (reason: string) => `[dynamic context not run: ${inlineCode(written)} — ${reason}]`;
    if (!this.runCommand) return notRun(DYNAMIC_CONTEXT_OFF);
    const prepared = prepareCommand(written, this.matcher);
    if ("reason" in prepared) return notRun(prepared.reason);
    if (this.ran >= MAX_DYNAMIC_COMMANDS)
      return notRun(`a skill may run at most ${MAX_DYNAMIC_COMMANDS} commands when it is rendered`);
    if (this.inserted >= MAX_DYNAMIC_CONTEXT_CHARS)
      return notRun(`the skill's commands already inserted ${MAX_DYNAMIC_CONTEXT_CHARS} characters, the most allowed`);
    this.ran++;
    let result: DynamicCommandResult;
    try {
      result = await this.runCommand(prepared.command);
    } catch (error) {
      return `[dynamic context failed: ${inlineCode(written)} — ${clean(error instanceof Error ? error.message : String(error))}]`;
    }
    if (!result.ok)
      return result.ran
        ? `[dynamic context failed: ${inlineCode(written)} — ${clean(result.reason)}]`
        : notRun(clean(result.reason));
    let output = clean(result.output).replace(/\r?\n$/, "");
    const room = Math.min(MAX_COMMAND_OUTPUT_CHARS, MAX_DYNAMIC_CONTEXT_CHARS - this.inserted);
    if (output.length > room) {
      const total = output.length;
      output = `${cutAt(output, room)}\n[output cut: ${inlineCode(written)} wrote ${total} characters; the first ${room} are shown]`;
      this.inserted += room;
    } else {
      this.inserted += output.length;
    }
    return output;
  }
}

// A command runs as written, except that the skill-folder variables become `.` (commands run in
// the skill's folder); argument placeholders and the session id are never put into a command.
function prepareCommand(command: string, matcher: PlaceholderMatcher): { command: string } | { reason: string } {
  let prepared = "";
  let literalStart = 0;
  let index = command.indexOf("$");
  while (index !== -1) {
    const match = matcher(command, index);
    if (match?.placeholder.kind === "variable" && match.placeholder.name === "skillDir") {
      prepared += `${command.slice(literalStart, index)}.`;
      literalStart = index + match.length;
    } else if (match) {
      const what = match.placeholder.kind === "variable" ? "the session id is" : "arguments are";
      return {
        reason: `it contains ${command.slice(index, index + match.length)}, and ${what} never substituted into commands, which run exactly as written`,
      };
    }
    index = command.indexOf("$", match ? literalStart : index + 1);
  }
  return { command: prepared + command.slice(literalStart) };
}

function clean(text: string): string {
  return withoutControlCharacters(text);
}

// The first `length` UTF-16 units, without splitting a surrogate pair.
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

const MAX_SHOWN_COMMAND = 200;

// A Markdown code span that shows `text` (shortened) whatever backticks it contains.
function inlineCode(command: string): string {
  const text = command.length > MAX_SHOWN_COMMAND ? `${cutAt(command, MAX_SHOWN_COMMAND)}…` : command;
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
