export { withoutControlCharacters } from "../../exec/control-characters.js";

// Any control character (C0 and C1, DEL), line breaks included.
const ANY_CONTROL = /[\0-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex

/**
 * Text from a skill's files or file names, made safe to place in a tool result or a prompt line:
 * line breaks and other control characters become visible escapes (`\n`, `\u001b`), so a file
 * name cannot start a line of its own; `"`, `<`, `>` and `&` are escaped for attribute values.
 */
export function quoteForPrompt(text: string): string {
  const escaped = ANY_CONTROL.test(text) ? JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"') : text;
  return escaped.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder
// what a terminal shows ("Trojan Source"), and the Unicode line and paragraph separators.
const REORDERING = "\u202a-\u202e\u2066-\u2069\u2028\u2029";
const UNPRINTABLE = new RegExp(`[\\0-\\x1f\\x7f-\\x9f${REORDERING}]`, "g");
const REORDERING_OR_C1 = new RegExp(`[\\x80-\\x9f${REORDERING}]`, "g");
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * One line for a log or a terminal: control characters (line breaks and ESC included) and the
 * characters that reorder or break a line (bidi overrides, U+2028) become visible escapes.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => (char === "\n" ? "\\n" : escapeChar(char)));
}

/**
 * What may go to a terminal as is but never raw: bidi overrides and isolates, U+2028/U+2029 and
 * C1 controls become `\uXXXX`. Line breaks, tabs and ESC (the CLI's own colours) are kept, and
 * inside a JSON string the escape reads back as the same character, so output stays valid JSON.
 */
export function withoutReordering(text: string): string {
  return text.replace(REORDERING_OR_C1, escapeChar);
}

/** Sets an own property, even for keys such as `__proto__` that plain assignment would treat specially. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` needs defineProperty, which is slow and turns the object into a slower
  // dictionary: cold discovery of 10,000 skills spent about 10% of its time here.
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** Reads an own property only, never one inherited from `Object.prototype`. */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
