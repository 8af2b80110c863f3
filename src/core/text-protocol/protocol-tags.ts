import {
  LOAD_SKILL,
  READ_SKILL_RESOURCE,
  RUN_SKILL_SCRIPT,
  SEARCH_SKILLS,
  UNLOAD_SKILL,
} from "../tools/skill-tool-definitions.js";

// The tags of the text protocol, and the one rule that keeps results from posing as instructions.

/** The instructions a model writes in its reply: the skill tools' own, from their definitions. */
export const INSTRUCTION_TAGS = [
  LOAD_SKILL.textProtocol.tag,
  UNLOAD_SKILL.textProtocol.tag,
  READ_SKILL_RESOURCE.textProtocol.tag,
  RUN_SKILL_SCRIPT.textProtocol.tag,
  SEARCH_SKILLS.textProtocol.tag,
] as const;

/** An instruction's tag name. */
export type InstructionTag = (typeof INSTRUCTION_TAGS)[number];

/** The results the runner writes in the next user message. */
export const RESULT_TAGS = [
  "skill_content",
  "skill_unloaded",
  "resource_content",
  "script_result",
  "search_results",
  "skill_error",
  "resource_error",
  "script_error",
] as const;

/** A result's tag name. */
export type ResultTag = (typeof RESULT_TAGS)[number];

// Models write `use-skill` and `Use_Skill` too; both spellings are the same tag.
const NAMES = [...INSTRUCTION_TAGS, ...RESULT_TAGS].map((name) => name.replace("_", "[_-]")).join("|");

/**
 * A protocol tag, opening or closing, as the parser reads it: any case, `_` or `-`, spaces
 * inside the brackets, attributes over several lines. Groups: the `/` of a closing tag, the
 * name, the attributes (with a trailing `/` when self-closing). Attributes cannot contain `<`
 * or `>`, which keeps every match bounded by the next bracket: linear on any input.
 */
export const PROTOCOL_TAG = new RegExp(`<\\s*(\\/?)\\s*(${NAMES})(?![\\w-])([^<>]*)>`, "gi");

const TAG_START = new RegExp(`<(?=\\s*\\/?\\s*(?:${NAMES})(?![\\w-]))`, "gi");

/** A tag name as written (`Use-Skill`), in its canonical spelling (`use_skill`). */
export function canonicalTag(name: string): InstructionTag | ResultTag {
  return name.toLowerCase().replace("-", "_") as InstructionTag | ResultTag;
}

/** Whether a canonical tag name is a result the runner writes. */
export function isResultTag(name: InstructionTag | ResultTag): name is ResultTag {
  return (RESULT_TAGS as readonly string[]).includes(name);
}

/**
 * Text that cannot open or close a protocol tag: the `<` that would start one becomes `&lt;`.
 * Every text placed inside a result (a skill's instructions, a file, a script's output, an
 * echoed name or path) goes through it, so it can neither end its result early nor read as an
 * instruction or as another result. Everything else stays as written.
 */
export function neutralizeTags(text: string): string {
  return text.replace(TAG_START, "&lt;");
}
