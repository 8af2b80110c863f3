// Rendering a skill's instructions for the model: argument placeholders, variables and dynamic
// context (Claude Code's `!`command`` and ```! blocks), in one pass over the skill's own text.
import { withoutControlCharacters } from "./safe-text.js";
import { createPlaceholderMatcher, splitArguments, type Placeholder, type PlaceholderMatcher } from "./skill-arguments.js";

/** What running one dynamic-context command gave: its output, or why there is none. */
export type DynamicCommandResult =
  | { ok: true; output: string }
  /** `ran: true` when the command ran but failed (exit code, timeout); otherwise it was not run. */
  | { ok: false; reason: string; ran?: boolean };

/** Decides about and runs one dynamic-context command, exactly as the skill wrote it. */
export type DynamicCommandRunner = (command: string) => Promise<DynamicCommandResult>;

/** What {@link renderInstructions} fills in. */
export interface RenderInstructionsContext {
  /**
   * The argument string as typed. When absent, argument placeholders stay as written (so
   * `awk '{print $1}'` in a skill that takes no arguments is untouched); pass `""` to empty them.
   */
  arguments?: string;
  /** The frontmatter's `arguments` names, in order: `$<name>` is the argument at its position. */
  argumentNames?: readonly string[];
  /** The skill's folder, for `${CLAUDE_SKILL_DIR}` and `${SKILL_DIR}`. */
  skillDir: string;
  /** The session (thread) id, for `${CLAUDE_SESSION_ID}`; empty when unknown. */
  sessionId?: string;
  /** Runs dynamic-context commands. Absent: dynamic context is off and no command runs. */
  runCommand?: DynamicCommandRunner;
}

/** The most characters one command may insert; the rest is cut with a note. */
export const MAX_COMMAND_OUTPUT_CHARS = 10_000;
/** The most characters all commands of one rendering may insert together. */
export const MAX_DYNAMIC_CONTEXT_CHARS = 50_000;
/** The most commands one rendering runs; later ones are reported as not run. */
export const MAX_DYNAMIC_COMMANDS = 32;

type Segment =
  | { kind: "text"; text: string }
  | { kind: "placeholder"; placeholder: Placeholder }
  | { kind: "command"; command: string }
  | { kind: "block"; commands: string[] }
  | { kind: "unclosed-block"; line: number };

/**
 * Renders a skill's instructions (the SKILL.md body, without frontmatter).
 *
 * Placeholders, everywhere in the text (code blocks and code spans included, as in Claude Code):
 * `${CLAUDE_SKILL_DIR}` / `${SKILL_DIR}` → `skillDir`; `${CLAUDE_SESSION_ID}` → `sessionId` or
 * empty. When `arguments` is given (even `""`): `$ARGUMENTS` → the argument string as typed;
 * `$ARGUMENTS[N]`, `$N` and declared `$name` → the N-th argument (0-based, split like a shell,
 * see `splitArguments`), empty when out of range. Other `$…` stays literal. When the arguments are not blank and the text has no argument
 * placeholder at all (neither `$ARGUMENTS` nor `$ARGUMENTS[N]`, `$N` or a declared `$name`;
 * placeholders inside commands do not count), `\n\nARGUMENTS: <arguments as typed>` is appended.
 *
 * Dynamic context, replaced by the command's output before the model sees the text:
 * - inline `` !`command` ``: a single-backtick code span right after a `!` that starts a line or
 *   follows whitespace or `(`, `[`, `{`. So `\!` or `x!` does not run, nor does anything inside
 *   another code span (``` `` !`cmd` `` ```). Code spans are found within one line.
 * - a fenced block opened by ```` ```! ```` (three or more backticks, nothing else on the line but
 *   spaces) and closed by a backtick fence at least as long: each non-empty line is one command
 *   (there is no shell), and the outputs, in order, joined by line breaks, replace the block.
 *   A block that is never closed runs nothing; a note says so and its text stays as written.
 * - inside an ordinary fenced block (```` ``` ```` or `~~~`) nothing runs, so a skill can show
 *   the syntax. Fences count at any indentation (inside list items too); indented code blocks
 *   without a fence are not recognised, so fence examples instead.
 *
 * Security: there is one pass. Commands are found in the skill's own text, before anything is
 * substituted, and substituted values and command outputs are never scanned again, so an argument
 * or an output containing `` !`…` ``, ```` ```! ````, `$ARGUMENTS` or `${CLAUDE_SKILL_DIR}` stays
 * literal. Arguments are never substituted into a command: a command containing an argument
 * placeholder (when `arguments` is given) or `${CLAUDE_SESSION_ID}` is not run and a note says why. `${CLAUDE_SKILL_DIR}` and
 * `${SKILL_DIR}` in a command become `.`, since commands run in the skill's folder
 * (`` !`python3 ${CLAUDE_SKILL_DIR}/scripts/x.py` `` runs `python3 ./scripts/x.py`).
 *
 * Commands run one after another, in the order they appear, through `runCommand`; without it,
 * or when it refuses, the text says plainly that the command was not run and why. An output loses
 * its control characters (tabs and line breaks stay) and one final line break, and is capped at
 * {@link MAX_COMMAND_OUTPUT_CHARS}; all outputs together at {@link MAX_DYNAMIC_CONTEXT_CHARS};
 * at most {@link MAX_DYNAMIC_COMMANDS} commands run. Never throws for any text or output; an
 * exception from `runCommand` becomes a note.
 */
export async function renderInstructions(body: string, context: RenderInstructionsContext): Promise<string> {
  const allPlaceholders = createPlaceholderMatcher(context.argumentNames);
  const matcher: PlaceholderMatcher =
    context.arguments === undefined
      ? (text, index) => {
          const match = allPlaceholders(text, index);
          return match?.placeholder.kind === "variable" ? match : undefined;
        }
      : allPlaceholders;
  const typed = context.arguments ?? "";
  let split: string[] | undefined;
  const runner = new CommandRunner(context.runCommand, matcher);
  let usedArgument = false;
  const parts: string[] = [];
  for (const segment of tokenize(body, matcher)) {
    switch (segment.kind) {
      case "text":
        parts.push(segment.text);
        break;
      case "placeholder": {
        const { placeholder } = segment;
        if (placeholder.kind === "variable") {
          parts.push(placeholder.name === "skillDir" ? context.skillDir : (context.sessionId ?? ""));
        } else {
          usedArgument = true;
          split ??= splitArguments(typed);
          parts.push(placeholder.kind === "arguments" ? typed : (split[placeholder.index] ?? ""));
        }
        break;
      }
      case "command":
        parts.push(await runner.run(segment.command));
        break;
      case "block": {
        const outputs: string[] = [];
        for (const command of segment.commands) outputs.push(await runner.run(command));
        parts.push(outputs.join("\n"));
        break;
      }
      case "unclosed-block":
        parts.push(`[dynamic context not run: the \`\`\`! block that opens on line ${segment.line} is not closed]\n`);
        break;
    }
  }
  const rendered = parts.join("");
  if (typed.trim() === "" || usedArgument) return rendered;
  const kept = withoutTrailingLineBreaks(rendered);
  return kept === "" ? `ARGUMENTS: ${typed}` : `${kept}\n\nARGUMENTS: ${typed}`;
}

// ---------------------------------------------------------------------------------------------
// Tokenizing: lines, fences, code spans, placeholders

// Unlike CommonMark, a fence may be indented any amount, so fences nested in list items count.
const BACKTICK_FENCE = /^[ \t]*(`{3,})([^`]*)$/;
const TILDE_FENCE = /^[ \t]*(~{3,})(.*)$/;
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
// What may stand right before the `!` of an inline command.
const COMMAND_LEAD = /[\s([{]/;

interface Fence {
  char: string;
  length: number;
}

function tokenize(body: string, matcher: PlaceholderMatcher): Segment[] {
  const segments: Segment[] = [];
  const text = (value: string) => pushText(value, matcher, segments);
  const lines = splitLines(body);
  let fence: Fence | undefined;
  for (let index = 0; index < lines.length; index++) {
    const { content, end } = lines[index]!;
    if (fence) {
      if (closes(content, fence)) fence = undefined;
      text(content + end);
      continue;
    }
    const opener = fenceOpener(content);
    if (!opener) {
      scanLine(content, matcher, segments);
      text(end);
      continue;
    }
    if (opener.dynamic) {
      let close = index + 1;
      while (close < lines.length && !closes(lines[close]!.content, opener)) close++;
      if (close < lines.length) {
        const commands = lines.slice(index + 1, close).map((line) => line.content.trim()).filter((line) => line !== "");
        segments.push({ kind: "block", commands });
        text(lines[close]!.end);
        index = close;
        continue;
      }
      segments.push({ kind: "unclosed-block", line: index + 1 });
    }
    // An ordinary fence, or a dynamic one never closed (which, as in Markdown, runs to the end).
    fence = opener;
    text(content + end);
  }
  return segments;
}

function splitLines(body: string): Array<{ content: string; end: string }> {
  return body.split("\n").map((line, index, all) => {
    const last = index === all.length - 1;
    if (!last && line.endsWith("\r")) return { content: line.slice(0, -1), end: "\r\n" };
    return { content: line, end: last ? "" : "\n" };
  });
}

function fenceOpener(line: string): (Fence & { dynamic: boolean }) | undefined {
  const backticks = BACKTICK_FENCE.exec(line);
  if (backticks) return { char: "`", length: backticks[1]!.length, dynamic: backticks[2]!.trim() === "!" };
  const tildes = TILDE_FENCE.exec(line);
  if (tildes) return { char: "~", length: tildes[1]!.length, dynamic: false };
  return undefined;
}

function closes(line: string, fence: Fence): boolean {
  const match = CLOSING_FENCE.exec(line);
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

// One line outside fences: code spans are found by their backtick runs (a run of N backticks
// closes at the next run of exactly N on the line); a single-backtick span after a `!` in
// command position is an inline command; everything else is text with placeholders.
function scanLine(line: string, matcher: PlaceholderMatcher, segments: Segment[]): void {
  const runs = backtickRuns(line);
  const closers = nextRunOfSameLength(runs);
  let textStart = 0;
  let run = 0;
  while (run < runs.length) {
    const closer = closers[run]!;
    if (closer === -1) {
      run++;
      continue;
    }
    const open = runs[run]!;
    const close = runs[closer]!;
    const content = line.slice(open.start + open.length, close.start);
    const bang = open.start - 1;
    const isCommand = open.length === 1 && line[bang] === "!" && (bang === 0 || COMMAND_LEAD.test(line[bang - 1]!)) && content.trim() !== "";
    if (isCommand) {
      pushText(line.slice(textStart, bang), matcher, segments);
      segments.push({ kind: "command", command: content.trim() });
    } else {
      pushText(line.slice(textStart, close.start + close.length), matcher, segments);
    }
    textStart = close.start + close.length;
    run = closer + 1;
  }
  pushText(line.slice(textStart), matcher, segments);
}

function backtickRuns(line: string): Array<{ start: number; length: number }> {
  const runs: Array<{ start: number; length: number }> = [];
  let index = line.indexOf("`");
  while (index !== -1) {
    let end = index;
    while (line[end] === "`") end++;
    runs.push({ start: index, length: end - index });
    index = line.indexOf("`", end);
  }
  return runs;
}

// For each run, the index of the next run of the same length, or -1.
function nextRunOfSameLength(runs: ReadonlyArray<{ length: number }>): number[] {
  const next = new Array<number>(runs.length);
  const seen = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index--) {
    next[index] = seen.get(runs[index]!.length) ?? -1;
    seen.set(runs[index]!.length, index);
  }
  return next;
}

function pushText(text: string, matcher: PlaceholderMatcher, segments: Segment[]): void {
  let literalStart = 0;
  let index = text.indexOf("$");
  while (index !== -1) {
    const match = matcher(text, index);
    if (match) {
      if (index > literalStart) segments.push({ kind: "text", text: text.slice(literalStart, index) });
      segments.push({ kind: "placeholder", placeholder: match.placeholder });
      literalStart = index + match.length;
    }
    index = text.indexOf("$", match ? literalStart : index + 1);
  }
  if (text.length > literalStart) segments.push({ kind: "text", text: text.slice(literalStart) });
}

function withoutTrailingLineBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === "\n" || text[end - 1] === "\r")) end--;
  return text.slice(0, end);
}

// ---------------------------------------------------------------------------------------------
// Running commands, with the limits of one rendering

class CommandRunner {
  private ran = 0;
  private inserted = 0;

  constructor(
    private readonly runCommand: DynamicCommandRunner | undefined,
    private readonly matcher: PlaceholderMatcher,
  ) {}

  async run(written: string): Promise<string> {
    const notRun = (reason: string) => `[dynamic context not run: ${inlineCode(written)} — ${reason}]`;
    if (!this.runCommand) return notRun("dynamic context is off for this agent");
    const prepared = prepareCommand(written, this.matcher);
    if ("reason" in prepared) return notRun(prepared.reason);
    if (this.ran >= MAX_DYNAMIC_COMMANDS) return notRun(`a skill may run at most ${MAX_DYNAMIC_COMMANDS} commands when it is rendered`);
    if (this.inserted >= MAX_DYNAMIC_CONTEXT_CHARS) return notRun(`the skill's commands already inserted ${MAX_DYNAMIC_CONTEXT_CHARS} characters, the most allowed`);
    this.ran++;
    let result: DynamicCommandResult;
    try {
      result = await this.runCommand(prepared.command);
    } catch (error) {
      return `[dynamic context failed: ${inlineCode(written)} — ${clean(error instanceof Error ? error.message : String(error))}]`;
    }
    if (!result.ok) return result.ran ? `[dynamic context failed: ${inlineCode(written)} — ${clean(result.reason)}]` : notRun(clean(result.reason));
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
      return { reason: `it contains ${command.slice(index, index + match.length)}, and ${what} never substituted into commands, which run exactly as written` };
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
