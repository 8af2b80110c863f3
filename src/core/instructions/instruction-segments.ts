// Tokenizing a skill's instructions for `renderInstructions`: lines, fences, code spans and
// placeholders become segments, so that commands are found in the skill's own text only, before
// anything is substituted.
import type { Placeholder, PlaceholderMatcher } from "./skill-arguments.js";

/** A piece of a skill's instructions, in order. */
export type InstructionSegment =
  | { kind: "text"; text: string }
  | { kind: "placeholder"; placeholder: Placeholder }
  /** An inline `` !`command` ``, trimmed. */
  | { kind: "command"; command: string }
  /** A closed ```` ```! ```` block: one command per non-empty line, trimmed. */
  | { kind: "block"; commands: string[] }
  /** A ```` ```! ```` block never closed (1-based line of its opener); its text follows as text. */
  | { kind: "unclosed-block"; line: number };

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

/**
 * Splits `body` into segments; `matcher` decides which `$…` forms are placeholders. Nothing runs
 * inside ordinary fences; the grammar is the one `renderInstructions` documents.
 */
export function tokenizeInstructions(body: string, matcher: PlaceholderMatcher): InstructionSegment[] {
  const segments: InstructionSegment[] = [];
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
        const commands = lines
          .slice(index + 1, close)
          .map((line) => line.content.trim())
          .filter((line) => line !== "");
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
  // Both patterns need a backtick or tilde first after the indentation: most lines have neither.
  let first = 0;
  while (line[first] === " " || line[first] === "\t") first++;
  if (line[first] !== "`" && line[first] !== "~") return undefined;
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
function scanLine(line: string, matcher: PlaceholderMatcher, segments: InstructionSegment[]): void {
  if (!line.includes("`")) {
    pushText(line, matcher, segments);
    return;
  }
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
    const isCommand =
      open.length === 1 &&
      line[bang] === "!" &&
      (bang === 0 || COMMAND_LEAD.test(line[bang - 1]!)) &&
      content.trim() !== "";
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

function pushText(text: string, matcher: PlaceholderMatcher, segments: InstructionSegment[]): void {
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
