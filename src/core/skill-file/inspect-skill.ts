import { parseAllowedTools } from "./allowed-tools.js";
import type { Diagnostic } from "../diagnostic.js";
import { pyStrip } from "../text/python-text.js";
import { setOwn, withoutControlCharacters } from "../text/safe-text.js";
import { parseLeniently } from "./parse-leniently.js";
import { readPlainSkill } from "./plain-skill.js";
import { readSimpleSkillFrontmatter } from "./skill-document.js";
import type { SkillMetadata } from "./skill-metadata.js";
import { INCLUDE_TOOLS_KEY, INCLUDE_TOOLS_SHAPE } from "../tools/included-tools.js";
import { skillEntrypoint } from "../skill-module/skill-entrypoint.js";
import { frontmatterErrors, isUsualSkillName, normalizeSkillName } from "./validate-frontmatter.js";

/** Input of {@link inspectSkill}. */
export interface InspectSkillInput {
  /** The `SKILL.md` text, or at least its frontmatter. */
  text: string;
  /** Where the `SKILL.md` is, as the source names it; becomes {@link SkillMetadata.path}. */
  file: string;
  /** The folder name, to compare with the skill's name. */
  directoryName?: string;
  /** Id of the source, recorded on the metadata and the diagnostics. */
  source: string;
}

/** Result of {@link inspectSkill}: the metadata unless the skill must be skipped, and every diagnostic. */
export interface InspectSkillResult {
  skill?: SkillMetadata;
  diagnostics: Diagnostic[];
}

// Names end up in tool arguments and in the prompt; these characters have no business there.
const UNSAFE_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>&"'`\\/\s]/u;
const MAX_LENIENT_NAME_LENGTH = 128;

/**
 * Reads a skill for runtime use, leniently, as the Agent Skills client guide recommends: a
 * skill whose frontmatter cannot be parsed, or without a usable name or description, is
 * skipped with an `error` diagnostic; anything cosmetic (name/folder mismatch, long
 * description, unknown fields) loads with a `warning` that uses the reference validator's wording.
 */
export function inspectSkill(input: InspectSkillInput): InspectSkillResult {
  // The usual skill, read straight into its metadata; anything else is read in full.
  const plain = readPlainSkill(input.text, input.file, input.directoryName, input.source);
  return plain ? { skill: plain, diagnostics: [] } : inspectSkillInFull(input);
}

/**
 * {@link inspectSkill} without its shortcut for the usual skill: what that shortcut must agree with.
 * @internal Exported for the equivalence test only.
 */
export function inspectSkillInFull(input: InspectSkillInput): InspectSkillResult {
  const diagnostics: Diagnostic[] = [];
  let text = input.text;
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    report(
      diagnostics,
      input,
      "warning",
      "byte-order-mark",
      "SKILL.md starts with a byte-order mark; the reference validator rejects it",
    );
  }
  // Nearly every skill's frontmatter is plain `key: value` lines, which need no repairs.
  const simple = readSimpleSkillFrontmatter(text);
  const frontmatter =
    simple ??
    parseLeniently(text, (severity, code, message) => report(diagnostics, input, severity, code, message))?.frontmatter;
  if (!frontmatter) return { diagnostics };

  const rawName = frontmatter.name;
  if (typeof rawName !== "string" || pyStrip(rawName) === "") {
    report(
      diagnostics,
      input,
      "error",
      "name-missing",
      "name" in frontmatter ? "Field 'name' must be a non-empty string" : "Missing required field in frontmatter: name",
    );
    return { diagnostics };
  }
  const usualName = isUsualSkillName(rawName);
  const name = usualName ? rawName : normalizeSkillName(rawName);
  if (!usualName && (UNSAFE_NAME.test(name) || name.length > MAX_LENIENT_NAME_LENGTH)) {
    report(
      diagnostics,
      input,
      "error",
      "name-unsafe",
      `Skill name ${JSON.stringify(name)} cannot be used: it contains whitespace, markup or control characters, or is too long`,
    );
    return { diagnostics };
  }
  const rawDescription = frontmatter.description;
  if (typeof rawDescription !== "string" || pyStrip(rawDescription) === "") {
    report(
      diagnostics,
      input,
      "error",
      "description-missing",
      "description" in frontmatter
        ? "Field 'description' must be a non-empty string"
        : "Missing required field in frontmatter: description",
      name,
    );
    return { diagnostics };
  }

  const problems = frontmatterErrors(frontmatter, input.directoryName, true);
  if (problems) for (const message of problems) report(diagnostics, input, "warning", "spec", message, name);

  const stripped = pyStrip(rawDescription);
  // The fast reader takes no value with a control character; only the others need cleaning.
  const description = simple ? stripped : withoutControlCharacters(stripped);
  if (description !== stripped) {
    report(
      diagnostics,
      input,
      "warning",
      "control-characters",
      "The description contains control characters; they were removed",
      name,
    );
  }
  const skill: SkillMetadata = {
    name,
    description,
    path: input.file,
    metadata: {},
    allowedTools: parseAllowedTools(frontmatter["allowed-tools"]),
    source: input.source,
  };
  readOptionalFields(frontmatter, skill, diagnostics, input);
  return { skill, diagnostics };
}

// The optional fields present, in the order written, into `skill`: one pass over the few there
// are rather than a lookup of each field there could be. (The diagnostics and the input are
// passed along rather than closed over: discovery inspects thousands of skills, and closures
// per skill were garbage for every one.)
function readOptionalFields(
  frontmatter: Record<string, unknown>,
  skill: SkillMetadata,
  diagnostics: Diagnostic[],
  input: InspectSkillInput,
): void {
  for (const field in frontmatter) {
    if (!Object.hasOwn(frontmatter, field)) continue;
    const value = frontmatter[field];
    switch (field) {
      case "license":
      case "compatibility":
      case "model":
      case "context":
      case "agent":
      case "argument-hint":
        if (typeof value === "string") skill[STRING_FIELDS[field]] = value;
        else if (field === "argument-hint" && Array.isArray(value)) skill.argumentHint = `[${value.join(", ")}]`;
        else if (value !== undefined) ignored(diagnostics, input, skill, field, "a string");
        break;
      case "disable-model-invocation":
      case "user-invocable": {
        const normalized = typeof value === "string" ? value.trim().toLowerCase() : "";
        if (normalized === "true" || normalized === "false") skill[BOOLEAN_FIELDS[field]] = normalized === "true";
        else if (value !== undefined) ignored(diagnostics, input, skill, field, "true or false");
        break;
      }
      case "hooks":
        skill.hooks = value;
        break;
      case "arguments": {
        const names = argumentNames(value);
        if (names) skill.argumentNames = names;
        else
          ignored(
            diagnostics,
            input,
            skill,
            "arguments",
            "a list of names (letters, digits, '_') or a space-separated string of them",
          );
        break;
      }
      case "allowed-tools":
        if (!isToolList(value)) ignored(diagnostics, input, skill, "allowed-tools", "a string or a list of strings");
        break;
      case "metadata":
        readMetadata(value, skill, diagnostics, input);
        break;
    }
  }
}

// Optional string fields and where they go. A one-line `argument-hint: [file]` is read as
// written (see quoteBracketedArgumentHint); a list over several lines is joined into text.
const STRING_FIELDS = {
  license: "license",
  compatibility: "compatibility",
  model: "model",
  context: "context",
  agent: "agent",
  "argument-hint": "argumentHint",
} as const satisfies Record<string, keyof SkillMetadata>;

const BOOLEAN_FIELDS = {
  "disable-model-invocation": "disableModelInvocation",
  "user-invocable": "userInvocable",
} as const satisfies Record<string, keyof SkillMetadata>;

// Copies the string entries of `metadata` (a mapping, or "" for `metadata:` alone) into `skill.metadata`.
function readMetadata(
  metadata: unknown,
  skill: SkillMetadata,
  diagnostics: Diagnostic[],
  input: InspectSkillInput,
): void {
  if (metadata === undefined || metadata === "") return;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    ignored(diagnostics, input, skill, "metadata", "a mapping");
    return;
  }
  // for...in rather than Object.entries: no array per entry, for every skill discovered.
  for (const key in metadata) {
    if (!Object.hasOwn(metadata, key)) continue;
    const value = (metadata as Record<string, unknown>)[key];
    if (typeof value === "string") setOwn(skill.metadata, key, value);
    else
      ignored(
        diagnostics,
        input,
        skill,
        `metadata.${key}`,
        key === INCLUDE_TOOLS_KEY ? INCLUDE_TOOLS_SHAPE : "a string",
      );
  }
  // The skill loads; its module cannot be imported, and this says why.
  const entrypoint = skillEntrypoint(skill);
  if (entrypoint && "error" in entrypoint)
    report(diagnostics, input, "warning", "entrypoint-invalid", entrypoint.error, skill.name);
}

// Adds a diagnostic about the file of `input`.
function report(
  diagnostics: Diagnostic[],
  input: InspectSkillInput,
  severity: Diagnostic["severity"],
  code: string,
  message: string,
  skill?: string,
): void {
  const diagnostic: Diagnostic = { severity, code, file: input.file, message, source: input.source };
  if (skill) diagnostic.skill = skill;
  diagnostics.push(diagnostic);
}

// Reports a field of `skill` whose value was ignored, and what it must be.
function ignored(
  diagnostics: Diagnostic[],
  input: InspectSkillInput,
  skill: SkillMetadata,
  field: string,
  expected: string,
): void {
  report(
    diagnostics,
    input,
    "warning",
    "field-type",
    `Field '${field}' must be ${expected}; it was ignored`,
    skill.name,
  );
}

// Claude Code's `arguments: [issue, priority]` (or `arguments: issue priority`) names `$issue`, `$priority`.
function argumentNames(value: unknown): string[] | undefined {
  const names = typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : value;
  if (
    !Array.isArray(names) ||
    !names.every((name) => typeof name === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  )
    return undefined;
  return names as string[];
}

function isToolList(value: unknown): boolean {
  return typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
}
