import { codePointLength, compareCodePoints, pyStrip } from "../text/python-text.js";

/** The frontmatter fields the Agent Skills specification allows. */
export const SPEC_FIELDS = ["allowed-tools", "compatibility", "description", "license", "metadata", "name"] as const;

/** Fields Claude Code understands beyond the specification. */
export const CLAUDE_CODE_FIELDS = [
  "agent",
  "argument-hint",
  "arguments",
  "context",
  "disable-model-invocation",
  "hooks",
  "model",
  "user-invocable",
] as const;

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

const SPEC_ONLY = new Set<string>(SPEC_FIELDS);
const SPEC_AND_CLAUDE_CODE = new Set<string>([...SPEC_FIELDS, ...CLAUDE_CODE_FIELDS]);
const SPEC_FIELDS_REPR = `[${SPEC_FIELDS.map((field) => `'${field}'`).join(", ")}]`;

/** Options of {@link validateFrontmatter}. */
export interface FrontmatterValidationOptions {
  /** The skill folder's name; when given, the skill's name must match it. */
  directoryName?: string;
  /** Accept Claude Code's extra fields instead of reporting them as unexpected. */
  allowClaudeCodeFields?: boolean;
}

/**
 * Checks parsed frontmatter against the Agent Skills rules, in the reference validator's
 * order and with its messages. Returns the errors; an empty array means valid.
 */
export function validateFrontmatter(
  frontmatter: Record<string, unknown>,
  options: FrontmatterValidationOptions = {},
): string[] {
  return frontmatterErrors(frontmatter, options.directoryName, options.allowClaudeCodeFields === true) ?? [];
}

/**
 * {@link validateFrontmatter}'s errors, or undefined when there are none: discovery validates
 * thousands of skills, nearly all valid, and needs neither an options object nor an array for them.
 * @internal
 */
export function frontmatterErrors(
  frontmatter: Record<string, unknown>,
  directoryName: string | undefined,
  allowClaudeCodeFields: boolean,
): string[] | undefined {
  const errors = found;
  errors.length = 0;
  const allowed = allowClaudeCodeFields ? SPEC_AND_CLAUDE_CODE : SPEC_ONLY;
  let unexpected: string[] | undefined;
  for (const key in frontmatter)
    if (!allowed.has(key) && Object.hasOwn(frontmatter, key)) (unexpected ??= []).push(key);
  if (unexpected) {
    errors.push(
      `Unexpected fields in frontmatter: ${unexpected.sort(compareCodePoints).join(", ")}. Only ${SPEC_FIELDS_REPR} are allowed.`,
    );
  }

  if (!("name" in frontmatter)) errors.push("Missing required field in frontmatter: name");
  else nameErrors(frontmatter.name, directoryName, errors);

  if (!("description" in frontmatter)) errors.push("Missing required field in frontmatter: description");
  else descriptionErrors(frontmatter.description, errors);

  if ("compatibility" in frontmatter) compatibilityErrors(frontmatter.compatibility, errors);
  return errors.length === 0 ? undefined : errors.slice();
}

// One validation's messages, copied out only when there are any. (The checks call nothing that
// could validate again before the copy.)
const found: string[] = [];

// Python's str.isalnum() (letters and numbers of any script) or a hyphen.
const NAME_CHARACTERS = /^[\p{L}\p{N}-]*$/u;
// What nearly every name is: lowercase ASCII words joined by single hyphens. Such a name passes
// every check below but the length and the folder's name, so one test stands for the rest.
const USUAL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Whether `name` is lowercase ASCII letters and digits in words joined by single hyphens, at
 * most {@link MAX_NAME_LENGTH} long: valid as it is (trimmed and NFKC-normalised already).
 */
export function isUsualSkillName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && USUAL_NAME.test(name);
}

/** The skill name as the reference compares it: trimmed and NFKC-normalised. */
export function normalizeSkillName(name: string): string {
  return nfkc(pyStrip(name));
}

// Printable ASCII is already in NFKC form; normalize() would copy it. (A loop: names are short,
// and a pattern's fixed cost per call was most of this check.)
function nfkc(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return text.normalize("NFKC");
  }
  return text;
}

// The checks below add their messages to `errors`, in the reference's order.
function nameErrors(value: unknown, directoryName: string | undefined, errors: string[]): void {
  if (typeof value === "string" && isUsualSkillName(value)) {
    if (directoryName !== undefined && directoryName !== value && nfkc(directoryName) !== value) {
      errors.push(`Directory name '${directoryName}' must match skill name '${value}'`);
    }
    return;
  }
  if (!isNonBlankString(value)) {
    errors.push("Field 'name' must be a non-empty string");
    return;
  }
  const name = normalizeSkillName(value);
  const length = codePointLength(name);
  if (length > MAX_NAME_LENGTH) {
    errors.push(`Skill name '${name}' exceeds ${MAX_NAME_LENGTH} character limit (${length} chars)`);
  }
  if (name !== name.toLowerCase()) errors.push(`Skill name '${name}' must be lowercase`);
  if (name.startsWith("-") || name.endsWith("-")) errors.push("Skill name cannot start or end with a hyphen");
  if (name.includes("--")) errors.push("Skill name cannot contain consecutive hyphens");
  if (!NAME_CHARACTERS.test(name)) {
    errors.push(`Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`);
  }
  if (directoryName !== undefined && nfkc(directoryName) !== name) {
    errors.push(`Directory name '${directoryName}' must match skill name '${name}'`);
  }
}

function descriptionErrors(value: unknown, errors: string[]): void {
  if (!isNonBlankString(value)) errors.push("Field 'description' must be a non-empty string");
  else if (value.length > MAX_DESCRIPTION_LENGTH) {
    // Surrogate pairs count once, so only a description longer in UTF-16 units can be too long.
    const length = codePointLength(value);
    if (length > MAX_DESCRIPTION_LENGTH)
      errors.push(`Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars)`);
  }
}

function compatibilityErrors(value: unknown, errors: string[]): void {
  if (typeof value !== "string") errors.push("Field 'compatibility' must be a string");
  else if (value.length > MAX_COMPATIBILITY_LENGTH) {
    const length = codePointLength(value);
    if (length > MAX_COMPATIBILITY_LENGTH)
      errors.push(`Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars)`);
  }
}

function isNonBlankString(value: unknown): value is string {
  return typeof value === "string" && pyStrip(value) !== "";
}
