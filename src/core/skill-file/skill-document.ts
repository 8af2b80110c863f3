import type { SkillsetErrorCode } from "../../errors/error-codes.js";
import { SkillParseError } from "../../errors/skillset-error.js";
import { parseFrontmatterYaml, readSimpleFrontmatter, type YamlMode, type YamlOrigin } from "./frontmatter-yaml.js";
import { codePointLength, pyStrip } from "../text/python-text.js";

/** A `SKILL.md` split into its frontmatter (parsed) and its Markdown body. */
export interface SkillDocument {
  /** The parsed frontmatter mapping; every scalar is a string. */
  frontmatter: Record<string, unknown>;
  /** The Markdown instructions after the frontmatter, trimmed. */
  body: string;
}

/** Where the frontmatter sits in a `SKILL.md`, or why it cannot be found. */
export type FrontmatterLocation =
  { ok: true; yamlStart: number; yamlEnd: number; bodyStart: number } | { ok: false; error: SkillParseError };

const MISSING_FRONTMATTER = "SKILL.md must start with YAML frontmatter (---)";
const UNCLOSED_FRONTMATTER = "SKILL.md frontmatter not properly closed with ---";
const NOT_A_MAPPING = "SKILL.md frontmatter must be a YAML mapping";

// Global, so that a search can start inside the text (no slice) and report where it ended (no match array).
const CLOSING_LINE = /^---[ \t]*\r?$/gm;

/**
 * Finds the frontmatter. `"strict"` follows the reference exactly: the text must start with
 * `---` and the frontmatter ends at the next `---` anywhere (Python's `split("---", 2)`).
 * `"lenient"` wants `---` on lines of their own, so a `---` inside a value does not end it.
 */
function locateFrontmatter(text: string, mode: YamlMode): FrontmatterLocation {
  if (!text.startsWith("---")) return failure("frontmatter-missing", MISSING_FRONTMATTER);
  if (mode === "strict") {
    const end = text.indexOf("---", 3);
    if (end === -1) return failure("frontmatter-unclosed", UNCLOSED_FRONTMATTER);
    return { ok: true, yamlStart: 3, yamlEnd: end, bodyStart: end + 3 };
  }
  const bodyStart = lenientBodyStart(text);
  if (bodyStart === NO_OPENING_LINE) return failure("frontmatter-missing", MISSING_FRONTMATTER);
  if (bodyStart === NO_CLOSING_LINE) return failure("frontmatter-unclosed", UNCLOSED_FRONTMATTER);
  return { ok: true, yamlStart: text.indexOf("\n") + 1, yamlEnd: closingDashesStart(text, bodyStart), bodyStart };
}

const NO_OPENING_LINE = -1;
const NO_CLOSING_LINE = -2;

// In `"lenient"` mode: where the body starts (just past the closing `---` line, before its line
// break), or NO_OPENING_LINE or NO_CLOSING_LINE. A number rather than a location object, for the
// thousands of skills discovery reads.
function lenientBodyStart(text: string): number {
  if (!text.startsWith("---")) return NO_OPENING_LINE;
  const firstBreak = text.indexOf("\n");
  const openingEnd = firstBreak === -1 ? text.length : firstBreak;
  if (openingEnd > 3 && text.slice(3, openingEnd).trim() !== "") return NO_OPENING_LINE;
  if (firstBreak === -1) return NO_CLOSING_LINE;
  const bodyStart = closingLineEnd(text, firstBreak);
  return bodyStart === -1 ? NO_CLOSING_LINE : bodyStart;
}

// Where the dashes of the closing line ending at `bodyStart` start: back over what that line held
// after them (an optional `\r`, then spaces and tabs), then over the dashes.
function closingDashesStart(text: string, bodyStart: number): number {
  let dashesEnd = bodyStart;
  if (text.charCodeAt(dashesEnd - 1) === 0x0d) dashesEnd--;
  while (text.charCodeAt(dashesEnd - 1) === 0x20 || text.charCodeAt(dashesEnd - 1) === 0x09) dashesEnd--;
  return dashesEnd - 3;
}

// Where the first closing line after the line break at `firstBreak` ends (before its own line
// break), or -1. Without `\r`, U+2028 or U+2029, which the pattern also takes for line breaks, a
// search for `\n---` finds it faster than the pattern.
function closingLineEnd(text: string, firstBreak: number): number {
  if (text.includes("\r") || text.includes("\u2028") || text.includes("\u2029")) {
    // The line after the opening one starts just after a line break, so `^` matches there as it
    // would at the start of the rest of the text.
    CLOSING_LINE.lastIndex = firstBreak + 1;
    return CLOSING_LINE.test(text) ? CLOSING_LINE.lastIndex : -1;
  }
  for (let at = text.indexOf("\n---", firstBreak); at !== -1; at = text.indexOf("\n---", at + 1)) {
    let end = at + 4;
    while (text.charCodeAt(end) === 0x20 || text.charCodeAt(end) === 0x09) end++;
    if (end === text.length || text.charCodeAt(end) === 0x0a) return end;
  }
  return -1;
}

/** Options of {@link parseSkillDocument}. */
export interface SkillDocumentOptions {
  /** Top-level fields whose values may use flow style (`[a, b]`) in `"strict"` mode, e.g. Claude Code's `arguments`. */
  flowStyleFields?: readonly string[];
}

/**
 * Parses a `SKILL.md` into frontmatter and body. Line endings are normalised first (the
 * reference reads files in Python's universal-newline mode). Throws {@link SkillParseError}
 * with the reference's messages when the frontmatter is unusable.
 */
export function parseSkillDocument(text: string, mode: YamlMode, options: SkillDocumentOptions = {}): SkillDocument {
  const normalized = normalizeNewlines(text);
  const location = locateFrontmatter(normalized, mode);
  if (!location.ok) throw location.error;
  const yaml = normalized.slice(location.yamlStart, location.yamlEnd);
  const frontmatter = parseFrontmatterYaml(yaml, mode, {
    origin: originOf(normalized, location.yamlStart),
    flowStyleFields: options.flowStyleFields,
  });
  if (!isMapping(frontmatter)) throw new SkillParseError("frontmatter-not-mapping", NOT_A_MAPPING);
  return { frontmatter, body: pyStrip(normalized.slice(location.bodyStart)) };
}

/**
 * The frontmatter {@link parseSkillDocument} would read in `"lenient"` mode, for the usual
 * `SKILL.md`, whose frontmatter is plain `key: value` lines (see {@link readSimpleFrontmatter});
 * undefined for any other, which only `parseSkillDocument` reads or rejects.
 */
export function readSimpleSkillFrontmatter(text: string): Record<string, unknown> | undefined {
  const normalized = normalizeNewlines(text);
  const bodyStart = lenientBodyStart(normalized);
  return bodyStart < 0
    ? undefined
    : readSimpleFrontmatter(normalized, normalized.indexOf("\n") + 1, closingDashesStart(normalized, bodyStart));
}

/**
 * Splits a `SKILL.md` at the end of its frontmatter, as read at runtime, so that only the
 * instructions are rendered; text without frontmatter is all instructions.
 */
export function splitAtBody(text: string): { head: string; body: string } {
  const location = locateFrontmatter(text, "lenient");
  return location.ok
    ? { head: text.slice(0, location.bodyStart), body: text.slice(location.bodyStart) }
    : { head: "", body: text };
}

/** The line and column of `offset` in `text`, 1-based (YAML errors name the file's lines; the frontmatter starts on line 2). */
function originOf(text: string, offset: number): YamlOrigin {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: (lineStart === offset ? 0 : codePointLength(text.slice(lineStart, offset))) + 1 };
}

/** `\r\n` and lone `\r` become `\n`, as in Python's universal-newline reading. */
function normalizeNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function failure(code: SkillsetErrorCode, message: string): FrontmatterLocation {
  return { ok: false, error: new SkillParseError(code, message) };
}
