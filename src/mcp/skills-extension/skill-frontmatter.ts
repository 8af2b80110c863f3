import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";
import { SkillsetError } from "../../errors/skillset-error.js";
import { yamlBoundsProblem } from "../../core/skill-file/frontmatter-yaml.js";
import { parseSkillDocument, splitAtBody } from "../../core/skill-file/skill-document.js";

// As at runtime: alias expansion is bounded so a "billion laughs" frontmatter cannot explode.
const MAX_ALIASES = 50;

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
