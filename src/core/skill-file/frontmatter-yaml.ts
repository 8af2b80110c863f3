import { isAlias, isCollection, isNode, isPair, isScalar, parseDocument, visit, type Node } from "yaml";
import { SkillParseError } from "../../errors/skillset-error.js";
import { parseSimpleMapping } from "./simple-yaml-mapping.js";

/** How YAML frontmatter is read. */
export type YamlMode =
  /** The reference's strictyaml subset: flow collections, anchors, aliases, tags and duplicate keys are errors. */
  | "strict"
  /** What real skills use: flow collections and a bounded number of aliases are accepted. */
  | "lenient";

// Alias expansion is bounded so a "billion laughs" document cannot explode memory.
const MAX_ALIASES = 50;

/** Largest frontmatter read, in characters; real ones are a few hundred. */
export const MAX_FRONTMATTER_CHARS = 256 * 1024;
/** Deepest nesting handed to the YAML parser, which recurses per level. */
const MAX_YAML_DEPTH = 64;

/**
 * Why text is too big or too deep to hand to the YAML parser, or `undefined`. Flow nesting
 * (`[`, `{`) and indentation are both counted; thousands of levels overflow the parser's stack.
 */
export function yamlBoundsProblem(text: string): string | undefined {
  if (text.length > MAX_FRONTMATTER_CHARS) return `the frontmatter is larger than ${MAX_FRONTMATTER_CHARS} characters`;
  let depth = 0;
  let indent = 0;
  let lineStart = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x0a) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart && code === 0x20) {
      if (++indent > MAX_YAML_DEPTH * 4) return `nesting deeper than ${MAX_YAML_DEPTH} levels`;
      continue;
    }
    lineStart = false;
    if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_YAML_DEPTH) return `nesting deeper than ${MAX_YAML_DEPTH} levels`;
    } else if (code === 0x5d || code === 0x7d) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

const PARSE_OPTIONS = {
  schema: "failsafe",
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
  // A library must not print: the yaml package would emit process warnings (e.g. for a
  // collection used as a key); errors are reported through the document instead.
  logLevel: "error",
} as const;

/** Where the frontmatter's text starts in its file (1-based), so errors give the file's line and column. */
export interface YamlOrigin {
  line: number;
  column: number;
}

/** Options of {@link parseFrontmatterYaml}. */
export interface FrontmatterYamlOptions {
  /** Where the text starts in its file. @default { line: 1, column: 1 } */
  origin?: YamlOrigin;
  /**
   * Top-level fields whose values may use flow style (`[a, b]`, `{k: v}`) in `"strict"` mode,
   * e.g. Claude Code's `arguments: [pr, priority]` when its fields are accepted. Anchors,
   * aliases and tags stay errors there too.
   */
  flowStyleFields?: readonly string[];
}

/**
 * Parses frontmatter YAML in which every scalar is a string (`1.0` stays `"1.0"`, an empty
 * value is `""`), as the reference validator does. Throws {@link SkillParseError} with
 * `Invalid YAML in frontmatter: <detail>`, the detail ending in ` at line <l>, column <c>`
 * (of the file, from `options.origin`) when the problem has a place.
 */
export function parseFrontmatterYaml(text: string, mode: YamlMode, options: FrontmatterYamlOptions = {}): unknown {
  // The fast path, then the bounds only for what goes to the parser.
  const fast = readSimpleFrontmatter(text);
  if (fast) return fast;
  const bounds = yamlBoundsProblem(text);
  if (bounds) throw new SkillParseError("yaml-too-large", `Invalid YAML in frontmatter: ${bounds}`);

  const where = (offset: number) => place(text, offset, options.origin ?? { line: 1, column: 1 });
  let document;
  try {
    document = parseDocument(text, PARSE_OPTIONS);
  } catch (error) {
    throw invalidYaml(error instanceof Error ? error.message : String(error));
  }
  const [error] = document.errors;
  if (error)
    throw invalidYaml(`${firstLine(error.message)}${where(unclosedOpener(text, error.pos[0]) ?? error.pos[0])}`);
  if (mode === "strict") rejectNonStrictSyntax(document, text, where, new Set(options.flowStyleFields));
  try {
    return document.toJS({ maxAliasCount: MAX_ALIASES }) as unknown;
  } catch (error) {
    throw invalidYaml(error instanceof Error ? firstLine(error.message) : String(error));
  }
}

/**
 * The frontmatter (`text` from `from` to `to`) when it is plain `key: value` lines (and one level
 * of nested ones) that the fast reader is sure of, as {@link parseFrontmatterYaml} would return
 * it; otherwise undefined.
 */
export function readSimpleFrontmatter(text: string, from = 0, to = text.length): Record<string, unknown> | undefined {
  return to - from > MAX_FRONTMATTER_CHARS ? undefined : parseSimpleMapping(text, from, to);
}

type Document = ReturnType<typeof parseDocument>;

function rejectNonStrictSyntax(
  document: Document,
  text: string,
  where: (offset: number) => string,
  flowStyleFields: ReadonlySet<string>,
): void {
  visit(document, (_key, node, path) => {
    if (isAlias(node)) throw invalidYaml(`aliases are not allowed (*${node.source})${where(node.range?.[0] ?? 0)}`);
    if (!isNode(node)) return;
    const start = node.range?.[0] ?? 0;
    if (node.anchor)
      throw invalidYaml(`anchors are not allowed (&${node.anchor})${where(propertyStart(text, start, "&"))}`);
    if (node.tag) throw invalidYaml(`tags are not allowed (${node.tag})${where(propertyStart(text, start, "!"))}`);
    if (isCollection(node) && node.flow && !inFlowStyleField(document, path, flowStyleFields)) {
      throw invalidYaml(`flow style collections ([...] or {...}) are not allowed${where(start)}`);
    }
    return undefined;
  });
}

// Whether a node is (inside) the value of one of the top-level `fields`: path is Document, its
// mapping, then the field's pair.
function inFlowStyleField(document: Document, path: readonly unknown[], fields: ReadonlySet<string>): boolean {
  const pair = path[2];
  return (
    fields.size > 0 &&
    path[1] === document.contents &&
    isPair(pair) &&
    isScalar(pair.key) &&
    fields.has(String(pair.key.value))
  );
}

function invalidYaml(detail: string): SkillParseError {
  return new SkillParseError("invalid-yaml", `Invalid YAML in frontmatter: ${detail}`);
}

/** ` at line <l>, column <c>` of `offset` in `text`, counted in the file `text` starts in at `origin`; columns count code points. */
function place(text: string, offset: number, origin: YamlOrigin): string {
  const end = Math.min(Math.max(offset, 0), text.length);
  let line = 0;
  let lineStart = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < end; index = text.indexOf("\n", index + 1)) {
    line++;
    lineStart = index + 1;
  }
  const column = Array.from(text.slice(lineStart, end)).length + 1;
  return ` at line ${origin.line + line}, column ${line === 0 ? origin.column + column - 1 : column}`;
}

/**
 * The parser reports a `[`, `{` or quote that is never closed where it gave up, often the
 * next line or the end of the frontmatter. The innermost such node that ends at `offset`
 * gives its opening character instead, where the author has to look. Runs only for a
 * document with errors, so it may parse again, keeping the tokens that show what is closed.
 */
function unclosedOpener(text: string, offset: number): number | undefined {
  let opener: number | undefined;
  visit(parseDocument(text, { ...PARSE_OPTIONS, keepSourceTokens: true }), (_key, node) => {
    if (!isNode(node) || !node.range) return;
    const [start, end] = node.range;
    if (end === offset && start < offset && isUnclosed(node, text.slice(start, end).trimEnd())) opener = start;
  });
  return opener;
}

function isUnclosed(node: Node, source: string): boolean {
  if (isCollection(node)) {
    const token = node.srcToken;
    return (
      node.flow === true &&
      token?.type === "flow-collection" &&
      !token.end.some((end) => end.type === "flow-seq-end" || end.type === "flow-map-end")
    );
  }
  if (!isScalar(node) || (node.type !== "QUOTE_DOUBLE" && node.type !== "QUOTE_SINGLE")) return false;
  const quote = source[0]!;
  // A closing double quote is not one escaped by an odd number of backslashes.
  return source.length < 2 || !source.endsWith(quote) || (quote === '"' && /(?:^|[^\\])(?:\\\\)*\\"$/.test(source));
}

/** Where the `&anchor` or `!tag` written before a value starting at `valueStart` begins (the value's start when not found). */
function propertyStart(text: string, valueStart: number, prefix: "&" | "!"): number {
  let index = valueStart;
  for (;;) {
    while (index > 0 && /\s/.test(text[index - 1]!)) index--;
    let start = index;
    // Properties are separated by spaces, or follow a flow collection's `[`, `{` or `,`.
    while (start > 0 && !/[\s[{,]/.test(text[start - 1]!)) start--;
    const token = text.slice(start, index);
    if (token.startsWith(prefix)) return start;
    if (start === index || !(token.startsWith("&") || token.startsWith("!"))) return valueStart;
    index = start;
  }
}

function firstLine(message: string): string {
  return message.split("\n", 1)[0]!.trim();
}
