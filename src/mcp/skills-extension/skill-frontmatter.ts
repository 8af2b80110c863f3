import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";
import { SkillsetError } from "../../errors/skillset-error.js";
import { readSimpleFrontmatter, yamlBoundsProblem } from "../../core/skill-file/frontmatter-yaml.js";
import { parseSkillDocument, splitAtBody } from "../../core/skill-file/skill-document.js";

// As at runtime: alias expansion is bounded so a "billion laughs" frontmatter cannot explode.
const MAX_ALIASES = 50;

// What YAML 1.2's core schema reads as null, a boolean or a number (the yaml package's own tests,
// a number's widened to any digits with an optional fraction and exponent): a string the fast
// reader returns is YAML's string only when it is none of these, quoted or not.
const CORE_NOT_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)?$/;
// Characters the fast reader trims or skips where YAML keeps or refuses them (a lone `\r`,
// controls but tab and line feed, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF, surrogates).
const NOT_AS_YAML = /\r(?!\n)|[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

/**
 * A `SKILL.md`'s frontmatter as the Skills extension publishes it: YAML 1.2 (core schema) read
 * into a JSON object with every field the author wrote, `true` and `1.5` as a boolean and a
 * number, as most YAML readers, and so most MCP clients, read them. Throws a
 * {@link SkillsetError} when there is no frontmatter or it is not a YAML mapping.
 */
export function frontmatterObject(text: string): Record<string, unknown> {
  const { head } = splitAtBody(text);
  if (head === "") throw new SkillsetError("frontmatter-missing", "SKILL.md must start with YAML frontmatter (---)");
  const yaml = head.slice(head.indexOf("\n") + 1, head.lastIndexOf("\n") + 1);
  const bounds = yamlBoundsProblem(yaml);
  if (bounds) throw new SkillsetError("invalid-yaml", `Invalid YAML in frontmatter: ${bounds}`);
  const simple = simpleFrontmatter(yaml);
  if (simple) return simple;
  let value: unknown;
  try {
    value = parse(yaml, {
      maxAliasCount: MAX_ALIASES,
      uniqueKeys: true,
      prettyErrors: false,
      logLevel: "error",
    }) as unknown;
  } catch (error) {
    throw new SkillsetError("invalid-yaml", `Invalid YAML in frontmatter: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SkillsetError("frontmatter-not-mapping", "SKILL.md frontmatter must be a YAML mapping");
  return value as Record<string, unknown>;
}

// Plain `key: value` lines (and one nested block of them) read without building a YAML document,
// some 20 times faster: `skills/get` reads a frontmatter on every call. Discovery's reader gives
// strings only, which are YAML 1.2's when none reads as anything else (keys included: `True:` is
// the key "true", `null:` the key ""); otherwise, and for anything it is not sure of, the parser.
/** @internal Exported for the equivalence test only. */
export function simpleFrontmatter(yaml: string): Record<string, unknown> | undefined {
  if (NOT_AS_YAML.test(yaml)) return undefined;
  const mapping = readSimpleFrontmatter(yaml);
  return mapping && onlyStrings(mapping) ? mapping : undefined;
}

function onlyStrings(mapping: Record<string, unknown>): boolean {
  for (const key in mapping) {
    const value = mapping[key];
    if (CORE_NOT_STRING.test(key)) return false;
    if (typeof value === "string" ? CORE_NOT_STRING.test(value) : !onlyStrings(value as Record<string, unknown>))
      return false;
  }
  return true;
}

/**
 * Whether a `SKILL.md`'s frontmatter is, field by field, the `expected` object of its entry.
 * Servers read YAML differently: one that reads it as YAML 1.2 publishes `true`, one that keeps
 * every scalar a string (as the Agent Skills reference does) publishes `"true"`. Either reading
 * of the same text matches; any other difference does not.
 */
export function frontmatterMatches(text: string, expected: Record<string, unknown>): boolean {
  const read = (parseFrontmatter: () => Record<string, unknown>) => {
    try {
      return isDeepStrictEqual(parseFrontmatter(), expected);
    } catch {
      return false;
    }
  };
  return read(() => frontmatterObject(text)) || read(() => parseSkillDocument(text, "lenient").frontmatter);
}
