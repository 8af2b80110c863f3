import { DEFAULT_MAX_DESCRIPTION_LENGTH, shortenText } from "../prompt-markdown.js";
import { renderCatalogXml } from "../prompt-xml.js";
import type { SkillMetadata } from "../skill-metadata.js";

/** Options of {@link renderTextProtocolPrompt}. */
export interface TextProtocolPromptOptions {
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength?: number;
  /** Whether `<execute_script>` is offered (an executor is configured). @default true */
  scripts?: boolean;
  /** How many skills may be loaded at once, named where `<unload_skill>` is explained. @default 10 */
  maxLoadedSkills?: number;
}

/**
 * What the engine's load results call the way to read a resource, in this protocol: the
 * instruction's name, without brackets (inside results, protocol tags are neutralized).
 */
export const TEXT_PROTOCOL_READ_HINT = "read_resource";

type CatalogSkill = Pick<SkillMetadata, "name" | "description" | "path" | "disableModelInvocation" | "argumentHint">;

/**
 * The system prompt of the text protocol, for models without tool calling: the
 * `<available_skills>` catalog (the reference's XML format, as `renderCatalogXml` writes it;
 * descriptions on one line, cut at `maxDescriptionLength`, with the argument hint), then how to
 * write the instructions and that their results come back in the next message. Skills marked
 * `disable-model-invocation` are left out. The text depends only on the catalog and the
 * options, so it is a stable, cacheable prefix.
 */
export function renderTextProtocolPrompt(skills: readonly CatalogSkill[], options: TextProtocolPromptOptions = {}): string {
  const limit = options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH;
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  const catalog = renderCatalogXml(visible.map((skill) => ({ name: skill.name, path: skill.path, description: catalogDescription(skill, limit) })));
  if (visible.length === 0) return `${catalog}\n\n(No skills are available.)`;
  return `${catalog}\n\n${textProtocolInstructions({ ...options, arguments: visible.some((skill) => skill.argumentHint !== undefined) })}`;
}

/** The instructions part of {@link renderTextProtocolPrompt}, after the catalog. */
export function textProtocolInstructions(options: TextProtocolPromptOptions & { arguments?: boolean } = {}): string {
  const maxLoaded = options.maxLoadedSkills ?? 10;
  const lines = [
    "## Skills",
    "",
    "Each skill in <available_skills> is a set of instructions, with scripts and reference files, for one kind of task. When a task matches a skill's description, load the skill before you start and follow its instructions. You work with skills by writing these instructions in your reply, each on its own line, as plain text:",
    "",
    "<use_skill>skill-name</use_skill>",
    `  Loads a skill's instructions and lists its files.${options.arguments ? ' For a skill that takes arguments (see its description), add them: <use_skill arguments="…">skill-name</use_skill>.' : ""}`,
    '<read_resource skill="skill-name">path/in/the/skill</read_resource>',
    "  Reads a file of a loaded skill, by its path relative to the skill's folder. Add offset=\"N\" to go on from line N of a long file.",
  ];
  if (options.scripts ?? true) {
    lines.push(
      '<execute_script skill="skill-name">scripts/example.py --option value</execute_script>',
      "  Runs one program with its arguments in a loaded skill's folder, without a shell: no pipes, redirections, `;`, `&&` or `$`.",
    );
  }
  lines.push("<unload_skill>skill-name</unload_skill>", `  Unloads a skill you no longer need: at most ${maxLoaded} can be loaded at once.`, "");
  if (!(options.scripts ?? true)) lines.push("Scripts cannot be run here: when a skill's instructions say to run one, give the user the command instead.", "");
  lines.push(
    "After your instructions, stop and wait. The system runs every instruction of your reply, in order, and sends the results in the next message: <skill_content>, <resource_content>, <script_result>, <skill_unloaded>, or <skill_error>, <resource_error>, <script_error> with the reason. Never write these result tags yourself. When you need no more skills, answer the user without any instruction.",
  );
  return lines.join("\n");
}

function catalogDescription(skill: CatalogSkill, limit: number): string {
  const description = shortenText(oneLine(skill.description), limit);
  const hint = skill.argumentHint === undefined ? "" : shortenText(oneLine(skill.argumentHint), 80);
  return hint === "" ? description : `${description} (arguments: ${hint})`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
