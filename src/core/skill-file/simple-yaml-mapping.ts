import { CLAUDE_CODE_FIELDS, SPEC_FIELDS } from "./validate-frontmatter.js";

// Most frontmatter is a handful of `key: value` lines and maybe a `metadata:` block of the same.
// Reading those directly is ~40x faster than building a YAML document, which matters when
// discovering thousands of skills. Anything this reader is not certain about goes to the YAML
// parser; a property test checks that both give equal results. Lines are read by position and
// only a finished value is sliced: regular-expression matches, then per-line slices, allocated
// most of what discovery allocated, and the garbage collections they caused cost more than the parsing.

const PLAIN_START = /^[^\s\-?:,[\]{}#&*!|>'"%@`]/;
// Not printable in YAML (tabs included, to stay simple).
const NOT_PRINTABLE = /[^\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
// Characters a value may not hold at all: the line breaks that YAML (and `.` in a pattern) end a line at.
const LINE_BREAK = /[\r\u2028\u2029]/;
// Anything in the text that can make a value unprintable or hold a line break, but for tabs:
// when there is none, which is nearly always, one test of the whole text stands for the two or
// three patterns per value that cost more than the rest of the reading.
const UNUSUAL_CHARACTER = /\r(?!\n)|[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
// A tab, a `#`, a `\r` or anything UNUSUAL_CHARACTER finds: what makes a text not plain.
const NOT_PLAIN = /[^\n\x20-\x22\x24-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
// The same for a text of ASCII only, asked the other way round (how far plain ASCII runs from
// where it starts): faster for such text, which most is, and no slice of the frontmatter to test.
const PLAIN_ASCII_RUN = /[\n\x20-\x22\x24-\x7e]*/y;
const BLANK = /^\s*$/;

// Keys returned as these constants rather than sliced from the text: a constant is interned
// already, so each skill's keys are neither allocated nor looked up in the string table. The
// fields of the specification and of Claude Code, and the `metadata` keys of the specification's
// example, by their first letter's code, so that a known key is recognised without scanning it first.
const KNOWN_KEYS: ReadonlyArray<readonly string[] | undefined> = (() => {
  const byFirst: string[][] = [];
  for (const key of [...SPEC_FIELDS, ...CLAUDE_CODE_FIELDS, "author", "version"])
    (byFirst[key.charCodeAt(0)] ??= []).push(key);
  return byFirst;
})();
const SPACE = 0x20;
const COLON = 0x3a;

/**
 * The frontmatter in `text` from `from` to `to` as a mapping of strings (and one level of nested
 * mappings of strings), or undefined when it is anything this reader is not sure about. Accepts
 * lines `key: value` and `key:` followed by more-indented `key: value` lines, all with one
 * indentation. (Read in place, the whole `SKILL.md` text being one flat string, its characters
 * cost less to read than through a slice.)
 * @internal Exported for the equivalence test only.
 */
export function parseSimpleMapping(text: string, from = 0, to = text.length): Record<string, unknown> | undefined {
  // Nearly always the text has no tab, no `#` and nothing unusual: one search says so, and the
  // values then need no search for them. Otherwise the text is read as carefully as before.
  PLAIN_ASCII_RUN.lastIndex = from;
  PLAIN_ASCII_RUN.test(text);
  let plain = PLAIN_ASCII_RUN.lastIndex >= to;
  let usual = plain;
  if (!plain) {
    const yaml = text.slice(from, to);
    plain = !NOT_PLAIN.test(yaml);
    usual = plain || !UNUSUAL_CHARACTER.test(yaml);
  }
  const result: Record<string, unknown> = {};
  // The open `key:` block, if any: its key, its entries so far and their indentation.
  let nestedKey: string | undefined;
  let nested: Record<string, string> | undefined;
  let nestedCount = 0;
  let nestedIndent = 0;
  let count = 0;
  let start = from;
  while (start < to) {
    let end = text.indexOf("\n", start);
    if (end === -1 || end > to) end = to;
    const lineStart = start;
    // One `\r` before the line break belongs to it.
    const lineEnd = end > lineStart && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    start = end + 1;
    let at = lineStart;
    while (at < lineEnd && text.charCodeAt(at) === SPACE) at++;
    if (at === lineEnd || (!isLetter(text.charCodeAt(at)) && BLANK.test(text.slice(lineStart, lineEnd)))) continue;
    const indent = at - lineStart;
    if (indent > 0 && nestedKey === undefined) return undefined;
    const key = keyAt(text, at, lineEnd);
    if (key === undefined) return undefined;
    // After `key:`, the end of the line or spaces and the value.
    let valueStart = at + key.length + 1;
    if (valueStart < lineEnd) {
      if (text.charCodeAt(valueStart) !== SPACE) return undefined;
      while (valueStart < lineEnd && text.charCodeAt(valueStart) === SPACE) valueStart++;
      if (!usual && LINE_BREAK.test(text.slice(valueStart, lineEnd))) return undefined;
    }
    const valueEnd = trimmedEnd(text, valueStart, lineEnd);
    if (indent > 0) {
      if ((nestedIndent !== 0 && indent !== nestedIndent) || valueEnd === valueStart) return undefined;
      nestedIndent = indent;
      const value = scalarAt(text, valueStart, valueEnd, usual, plain);
      if (value === undefined || Object.hasOwn(nested!, key)) return undefined;
      nested![key] = value;
      nestedCount++;
      continue;
    }
    if (Object.hasOwn(result, key)) return undefined;
    if (nestedKey !== undefined && nestedCount === 0) result[nestedKey] = "";
    nestedKey = undefined;
    if (valueEnd === valueStart) {
      // `key:` alone: an empty string, or the start of a nested block of entries.
      nestedKey = key;
      nested = {};
      nestedCount = 0;
      nestedIndent = 0;
      result[nestedKey] = nested;
    } else {
      const value = scalarAt(text, valueStart, valueEnd, usual, plain);
      if (value === undefined) return undefined;
      result[key] = value;
    }
    count++;
  }
  if (nestedKey !== undefined && nestedCount === 0) result[nestedKey] = "";
  if (count === 0) return undefined;
  if (++parsed % LAYOUT_SAMPLE === 0) keptLayouts[(parsed / LAYOUT_SAMPLE) % keptLayouts.length] = layoutOf(result);
  return result;
}

// V8 discards optimised code once no object has a layout (hidden class) it was compiled for,
// and each mapping read here is garbage as soon as its skill is inspected: after a few garbage
// collections, a process that discovers skills again (a new catalog per request, a re-scan)
// started on unoptimised code. Keeping an empty copy of every 32nd mapping (the last 8 of
// them) keeps the usual layouts; copies, so that no value, and no text it was sliced from,
// stays alive. Repeated cold discoveries of 10,000 skills, a garbage collection before each: 3-5% faster.
const LAYOUT_SAMPLE = 32;
const keptLayouts: Array<Record<string, unknown>> = new Array(8);
let parsed = 0;

// The same keys in the same order and nesting, with empty strings for values.
function layoutOf(mapping: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in mapping) {
    const value = mapping[key];
    copy[key] = typeof value === "string" ? "" : layoutOf(value as Record<string, unknown>);
  }
  return copy;
}

/**
 * The key at `from`, followed by `:`: a letter, then letters, digits, `_` and `-`; a known key as
 * its constant. Undefined when the line does not start so.
 * @internal Shared with the reader of plain skills, so that both read keys alike.
 */
export function keyAt(text: string, from: number, lineEnd: number): string | undefined {
  const first = text.charCodeAt(from);
  if (!isLetter(first)) return undefined;
  const known = knownKeyAt(text, from, lineEnd, first);
  if (known !== undefined) return known;
  let at = from + 1;
  while (at < lineEnd && isKeyCharacter(text.charCodeAt(at))) at++;
  if (at === lineEnd || text.charCodeAt(at) !== COLON) return undefined;
  const key = text.slice(from, at);
  // Plain assignment would set the prototype instead; the YAML parser keeps it as a key.
  return key === "__proto__" ? undefined : key;
}

// The known key written at `from` (whose first letter's code is `first`) and followed by `:`, or undefined.
function knownKeyAt(text: string, from: number, lineEnd: number, first: number): string | undefined {
  const candidates = KNOWN_KEYS[first];
  if (candidates) {
    for (const known of candidates)
      if (
        from + known.length < lineEnd &&
        text.charCodeAt(from + known.length) === COLON &&
        restMatches(text, from, known)
      )
        return known;
  }
  return undefined;
}

// Whether `known` is written at `from`, its first letter being known to be: keys are short, and
// comparing them here costs less than a call to startsWith.
function restMatches(text: string, from: number, known: string): boolean {
  for (let at = 1; at < known.length; at++) if (text.charCodeAt(from + at) !== known.charCodeAt(at)) return false;
  return true;
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isKeyCharacter(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d;
}

/**
 * The value in `text` from `from` to `to` (trimmed, not empty) when it is a plain,
 * single-quoted or escape-free double-quoted scalar; undefined otherwise. `usual`: the text has
 * no UNUSUAL_CHARACTER, so only a tab can make the value unprintable; `plain`: nor a tab or a `#`.
 * @internal Shared with the reader of plain skills, so that both read values alike.
 */
export function scalarAt(text: string, from: number, to: number, usual: boolean, plain: boolean): string | undefined {
  if (usual ? !plain && holds(text, "\t", from, to) : NOT_PRINTABLE.test(text.slice(from, to))) return undefined;
  const first = text.charCodeAt(from);
  const last = text.charCodeAt(to - 1);
  if (first === 0x27 && to - from >= 2 && last === 0x27) {
    const inner = text.slice(from + 1, to - 1);
    return /^(?:[^']|'')*$/.test(inner) ? inner.replaceAll("''", "'") : undefined;
  }
  if (first === 0x22 && to - from >= 2 && last === 0x22) {
    return holds(text, '"', from + 1, to - 1) || holds(text, "\\", from + 1, to - 1)
      ? undefined
      : text.slice(from + 1, to - 1);
  }
  // A letter is a plain scalar's usual start; the pattern decides the rest. A plain scalar
  // cannot hold `: ` or ` #`, nor end with `:`.
  if (!isLetter(first) && !PLAIN_START.test(text.charAt(from))) return undefined;
  return last === COLON || holds(text, ": ", from, to) || (!plain && holds(text, " #", from, to))
    ? undefined
    : text.slice(from, to);
}

// Whether `search` occurs in `text` between `from` and `to`.
function holds(text: string, search: string, from: number, to: number): boolean {
  const at = text.indexOf(search, from);
  return at !== -1 && at + search.length <= to;
}

/**
 * Where the text from `from` to `to` ends once `trimEnd` has removed trailing whitespace. Every
 * such character is at most U+0020 or at least U+00A0, and nearly every value ends in a letter,
 * digit or punctuation.
 * @internal Shared with the reader of plain skills.
 */
export function trimmedEnd(text: string, from: number, to: number): number {
  const last = text.charCodeAt(to - 1);
  if (from === to || (last > 0x20 && last < 0xa0)) return to;
  return from + text.slice(from, to).trimEnd().length;
}
