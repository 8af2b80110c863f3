import { printable } from "../../core/text/safe-text.js";

// Bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) and other
// invisible format characters that could reorder or hide what a reader sees.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text from a skill, a model or the command line, made inert for an HTML page (element content
 * and quoted attribute values alike): markup characters become entities, control characters and
 * bidirectional or invisible format characters become visible escapes (`\u202e`), so nothing can
 * add an element, leave an attribute, or reorder the text around it.
 */
export function html(text: string): string {
  return printable(text)
    .replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** `0.6667` as `66.7%`, `1` as `100%`. */
export function percent(share: number): string {
  const value = Math.round(share * 1000) / 10;
  return `${value}%`;
}

/** `12,345`. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** `3 of 12 queries fail`, `All 12 queries pass`, `The one query fails`. */
export function failHeadline(failing: number, total: number, one: string, many: string): string {
  if (total === 1) return `The one ${one} ${failing === 1 ? "fails" : "passes"}`;
  if (failing === 0) return `All ${total} ${many} pass`;
  return `${failing} of ${total} ${many} ${failing === 1 ? "fails" : "fail"}`;
}
