import { quoteBracketedArgumentHint } from "./bracketed-argument-hint.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { parseSkillDocument } from "./skill-document.js";
import { INCLUDE_TOOLS_KEY, INCLUDE_TOOLS_SHAPE } from "../tools/included-tools.js";
import { ENTRYPOINT_KEY, checkEntrypoint } from "../skill-module/skill-entrypoint.js";
import { CLAUDE_CODE_FIELDS, normalizeSkillName, validateFrontmatter } from "./validate-frontmatter.js";

/** The outcome of strict validation: `valid` exactly when `errors` is empty. */
export interface ValidationReport {
  valid: boolean;
  /** The skill's name as the reference reads it, or `null` when there is none. */
  name: string | null;
  errors: string[];
  warnings: string[];
}

/** Options of {@link validateSkillText}. */
export interface SkillValidationOptions {
  /** The skill folder's name; the skill's name must match it. */
  directoryName?: string;
  /** Accept Claude Code's extra fields (reported as warnings) instead of failing on them. */
  allowClaudeCodeFields?: boolean;
}

/**
 * Validates a `SKILL.md` exactly as the reference validator does: the same rules, in the same
 * order, with the same messages. Parse failures are a single error, as in the reference.
 */
export function validateSkillText(text: string, options: SkillValidationOptions = {}): ValidationReport {
  const warnings: string[] = [];
  // Accepting Claude Code's fields includes its way of writing `argument-hint: [file]`.
  const quotedHint = options.allowClaudeCodeFields ? quoteBracketedArgumentHint(text) : undefined;
  if (quotedHint) warnings.push(quotedHint.message);
  let frontmatter: Record<string, unknown>;
  try {
    // Claude Code's fields are YAML as Claude Code reads it: `arguments: [pr, priority]` is a list.
    const claudeCode = options.allowClaudeCodeFields ? { flowStyleFields: CLAUDE_CODE_FIELDS } : {};
    frontmatter = parseSkillDocument(quotedHint?.text ?? text, "strict", claudeCode).frontmatter;
  } catch (error) {
    if (!SkillsetError.isInstance(error)) throw error;
    return { valid: false, name: null, errors: [error.message], warnings: [] };
  }
  const errors = validateFrontmatter(frontmatter, options);
  if (options.allowClaudeCodeFields) {
    const extensions = CLAUDE_CODE_FIELDS.filter((field) => field in frontmatter);
    if (extensions.length > 0) {
      warnings.push(
        `Claude Code fields accepted: ${extensions.join(", ")}. Other Agent Skills clients ignore or reject them.`,
      );
    }
  }
  const metadata = frontmatter.metadata;
  if (
    typeof metadata === "object" &&
    metadata !== null &&
    INCLUDE_TOOLS_KEY in metadata &&
    typeof (metadata as Record<string, unknown>)[INCLUDE_TOOLS_KEY] !== "string"
  ) {
    warnings.push(`Field 'metadata.${INCLUDE_TOOLS_KEY}' must be ${INCLUDE_TOOLS_SHAPE}; runtimes ignore it.`);
  }
  // The reference reads `metadata` as any mapping, so a module's problems are warnings, never errors.
  const entrypoint = entrypointWarning(metadata);
  if (entrypoint) warnings.push(entrypoint);
  const name = typeof frontmatter.name === "string" ? normalizeSkillName(frontmatter.name) : null;
  return { valid: errors.length === 0, name, errors, warnings };
}

// What is wrong with `metadata.entrypoint` as written; whether its file exists is for validateSkillDirectory.
function entrypointWarning(metadata: unknown): string | undefined {
  if (typeof metadata !== "object" || metadata === null || !Object.hasOwn(metadata, ENTRYPOINT_KEY)) return undefined;
  const value = (metadata as Record<string, unknown>)[ENTRYPOINT_KEY];
  if (typeof value !== "string")
    return `Field 'metadata.${ENTRYPOINT_KEY}' must be a path to a .js, .mjs, .ts or .mts file in the skill's folder; runtimes ignore it.`;
  const checked = checkEntrypoint(value);
  return "error" in checked ? `${checked.error}. Runtimes ignore it.` : undefined;
}
