import { parse, type Comment, type Program } from "acorn";
import { transform } from "sucrase";
import { isTypeScriptPath, MAX_MODULE_BYTES } from "./skill-entrypoint.js";
import { lineColumn, originalOffsets } from "./stripped-positions.js";

export { MAX_MODULE_BYTES } from "./skill-entrypoint.js";

/** A module as plain ES JavaScript, or why it cannot be: a syntax error at `file:line:column`, too large. */
export type ModuleJavaScript = { source: string } | { error: string };

/** A module parsed for reading its exports: the JavaScript, its syntax tree, comments and tokens. */
export interface ParsedModule {
  /** The JavaScript (TypeScript stripped, comments and line numbers kept). */
  source: string;
  /** The file as written (TypeScript before stripping). */
  original: string;
  program: Program;
  comments: Comment[];
  /** TypeScript only: maps an offset in `source` to the offset in the TypeScript written. */
  toOriginal?: (offset: number) => number;
}

/**
 * The module at `path` (as the skill names it; `.ts` and `.mts` are TypeScript) as plain ES
 * JavaScript: TypeScript's types stripped by sucrase, everything else left as written, comments
 * and line numbers kept. The result is parsed as a module, so a syntax error is found here, with
 * its position in the file as written.
 */
export function moduleJavaScript(path: string, text: string): ModuleJavaScript {
  const parsed = parseModule(path, text);
  return "error" in parsed ? parsed : { source: parsed.source };
}

/** {@link moduleJavaScript}, keeping the syntax tree and comments for reading the exports. */
export function parseModule(path: string, text: string): ParsedModule | { error: string } {
  const tooLarge = sizeProblem(path, text);
  if (tooLarge) return { error: tooLarge };
  let source = text;
  let toOriginal: ((offset: number) => number) | undefined;
  if (isTypeScriptPath(path)) {
    try {
      source = transform(text, {
        transforms: ["typescript"],
        // Only types go: classes, optional chaining and the rest stay as written.
        disableESTransforms: true,
      }).code;
    } catch (error) {
      return { error: syntaxError(path, text, error, (offset) => offset) };
    }
    toOriginal = lazyOffsets(text, source);
  }
  const comments: Comment[] = [];
  try {
    const program = parse(source, { ecmaVersion: "latest", sourceType: "module", onComment: comments });
    return { source, original: text, program, comments, ...(toOriginal ? { toOriginal } : {}) };
  } catch (error) {
    // The position is in the stripped text; the author needs it in the file they wrote.
    return { error: syntaxError(path, text, error, toOriginal ?? ((offset) => offset)) };
  }
}

// originalOffsets, its tables built on first use: most modules never need them.
function lazyOffsets(original: string, stripped: string): (offset: number) => number {
  let map: ((offset: number) => number) | undefined;
  return (offset) => (map ??= originalOffsets(original, stripped))(offset);
}

// `Syntax error in <path>:<line>:<column>: <what>`, the column 1-based as editors count.
function syntaxError(path: string, text: string, error: unknown, toOriginal: (offset: number) => number): string {
  const message = error instanceof Error ? error.message.replace(/\s*\(\d+:\d+\)$/, "") : String(error);
  const pos = (error as { pos?: unknown }).pos;
  if (typeof pos !== "number") return `Syntax error in ${path}: ${message}`;
  const { line, column } = lineColumn(text, toOriginal(pos));
  return `Syntax error in ${path}:${line}:${column}: ${message}`;
}

// Counted without encoding the text: a code unit below 0x80 is one byte, below 0x800 two, a
// surrogate pair four (two per unit), any other three.
function sizeProblem(path: string, text: string): string | undefined {
  if (text.length <= MAX_MODULE_BYTES / 3) return undefined;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;
    if (bytes > MAX_MODULE_BYTES)
      return `${path} is too large to read as a module: over ${MAX_MODULE_BYTES} bytes (1 MiB); split it or bundle less into it`;
  }
  return undefined;
}
