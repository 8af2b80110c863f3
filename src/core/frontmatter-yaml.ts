import { isAlias, isCollection, isNode, parseDocument, visit } from "yaml";
import { SkillParseError } from "./errors.js";

/** How YAML frontmatter is read. */
export type YamlMode =
  /** The reference's strictyaml subset: flow collections, anchors, aliases, tags and duplicate keys are errors. */
  | "strict"
  /** What real skills use: flow collections and a bounded number of aliases are accepted. */
  | "lenient";

// Alias expansion is bounded so a "billion laughs" document cannot explode memory.
const MAX_ALIASES = 50;

/**
 * Parses frontmatter YAML in which every scalar is a string (`1.0` stays `"1.0"`, an empty
 * value is `""`), as the reference validator does. Throws {@link SkillParseError} with
 * `Invalid YAML in frontmatter: <detail>`.
 */
export function parseFrontmatterYaml(text: string, mode: YamlMode): unknown {
  const fast = parseSimpleMapping(text);
  if (fast) return fast;

  let document;
  try {
    document = parseDocument(text, {
      schema: "failsafe",
      uniqueKeys: true,
      strict: true,
      prettyErrors: false,
    });
  } catch (error) {
    throw invalidYaml(error instanceof Error ? error.message : String(error));
  }
  const [error] = document.errors;
  if (error) throw invalidYaml(firstLine(error.message));
  if (mode === "strict") rejectNonStrictSyntax(document);
  try {
    return document.toJS({ maxAliasCount: MAX_ALIASES }) as unknown;
  } catch (error) {
    throw invalidYaml(error instanceof Error ? firstLine(error.message) : String(error));
  }
}

function rejectNonStrictSyntax(document: ReturnType<typeof parseDocument>): void {
  visit(document, (_key, node) => {
    if (isAlias(node)) throw invalidYaml(`aliases are not allowed (*${node.source})`);
    if (!isNode(node)) return;
    if (node.anchor) throw invalidYaml(`anchors are not allowed (&${node.anchor})`);
    if (node.tag) throw invalidYaml(`tags are not allowed (${node.tag})`);
    if (isCollection(node) && node.flow) {
      throw invalidYaml("flow style collections ([...] or {...}) are not allowed");
    }
    return undefined;
  });
}

function invalidYaml(detail: string): SkillParseError {
  return new SkillParseError("invalid-yaml", `Invalid YAML in frontmatter: ${detail}`);
}

function firstLine(message: string): string {
  return message.split("\n", 1)[0]!.trim();
}

// Most frontmatter is a handful of `key: plain text` lines. Reading those directly is ~20x
// faster than building a YAML document, which matters when discovering thousands of skills.
// Anything this reader is not certain about goes to the YAML parser; both give equal results.
const SIMPLE_LINE = /^([A-Za-z][A-Za-z0-9_-]*):[ ]+([^\s\-?:,[\]{}#&*!|>'"%@`].*)$/;
const UNSAFE_IN_PLAIN = /: |:$| #|\t|[^\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

function parseSimpleMapping(text: string): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  let count = 0;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1]!;
    const value = match[2]!.trimEnd();
    if (UNSAFE_IN_PLAIN.test(value) || Object.hasOwn(result, key)) return undefined;
    result[key] = value;
    count++;
  }
  return count > 0 ? result : undefined;
}
