import { DEFAULT_MAX_DESCRIPTION_LENGTH, shortenText } from "../catalog/prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET, renderCatalog, type RenderedCatalog } from "../catalog/render-catalog.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { DEFAULT_SEARCH_LIMIT, type TextProtocolInstruction } from "../tools/skill-tool-definition.js";
import {
  LOAD_SKILL,
  READ_SKILL_RESOURCE,
  RUN_SKILL_SCRIPT,
  SEARCH_SKILLS,
  UNLOAD_SKILL,
} from "../tools/skill-tool-definitions.js";

/** Options of {@link renderTextProtocolPrompt}. */
export interface TextProtocolPromptOptions {
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength?: number;
  /** Whether `<execute_script>` is offered (an executor is configured). @default true */
  scripts?: boolean;
  /** How many skills may be loaded at once, named where `<unload_skill>` is explained. @default 10 */
  maxLoadedSkills?: number;
  /**
   * Most tokens (o200k_base) the `<available_skills>` catalog may take; the instructions after
   * it are not counted. Under it nothing changes; over it, descriptions are shortened, then
   * skills named only, then counted in `<more_skills>` (see `renderCatalog`). `false`: no limit.
   * @default 5000
   */
  catalogBudget?: number | false;
  /** Skills that keep their catalog entries first when the catalog is over its budget, most important first. */
  catalogPriority?: readonly string[];
  /** The catalog's source ids, lowest precedence first: skills of later sources keep their entries first. */
  sourceOrder?: readonly string[];
  /** When `<search_skills>` is offered: `"auto"` while the catalog is over its budget, `true` always, `false` never. @default "auto" */
  searchSkills?: "auto" | boolean;
}

/** The system prompt of the text protocol, and what a host needs to answer the replies to it. */
export interface TextProtocolPrompt {
  text: string;
  /** Whether the prompt offers `<search_skills>`: pass it to `runSkillInstructions` as `search`. */
  offersSearch: boolean;
  /** The `<available_skills>` catalog as fitted to the budget: its tokens, and which skills went where. */
  catalog: RenderedCatalog;
}

/**
 * What the engine's load results call the way to read a resource, in this protocol: the
 * instruction's name, without brackets (inside results, protocol tags are neutralized).
 */
export const TEXT_PROTOCOL_READ_HINT = "read_resource";

/**
 * The system prompt of the text protocol, for models without tool calling: the
 * `<available_skills>` catalog (the reference's XML format, as `renderCatalogXml` writes it;
 * descriptions on one line, cut at `maxDescriptionLength`, with the argument hint), fitted to
 * `catalogBudget`, then how to write the instructions and that their results come back in the
 * next message; `<search_skills>` among them when search is offered. Skills marked
 * `disable-model-invocation` are left out. The text depends only on the catalog and the
 * options, so it is a stable, cacheable prefix.
 */
export async function renderTextProtocolPrompt(
  skills: readonly SkillMetadata[],
  options: TextProtocolPromptOptions = {},
): Promise<TextProtocolPrompt> {
  const limit = options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH;
  const budget = options.catalogBudget ?? DEFAULT_CATALOG_BUDGET;
  const searchSkills = options.searchSkills ?? "auto";
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  // The runner's own entries (one line, cut, with the hint) go through the budgeted XML layout as they are.
  const catalog = await renderCatalog(
    visible.map((skill) => ({ ...skill, description: catalogDescription(skill, limit) })),
    {
      format: "xml",
      ...(budget !== false ? { budget } : {}),
      ...(options.catalogPriority ? { pinned: options.catalogPriority } : {}),
      ...(options.sourceOrder ? { sourceOrder: options.sourceOrder } : {}),
      // By name, without brackets: the XML catalog would escape them to `&lt;search_skills&gt;`.
      ...(searchSkills !== false ? { searchTool: SEARCH_SKILLS.textProtocol.tag } : {}),
    },
  );
  const overBudget = catalog.short.length + catalog.named.length + catalog.hidden.length > 0;
  const offersSearch = searchSkills === true || (searchSkills === "auto" && overBudget);
  if (visible.length === 0)
    return { text: `${catalog.text}\n\n(No skills are available.)`, offersSearch: false, catalog };
  const instructions = textProtocolInstructions({
    ...options,
    arguments: visible.some((skill) => skill.argumentHint !== undefined),
    search: offersSearch,
  });
  return { text: `${catalog.text}\n\n${instructions}`, offersSearch, catalog };
}

/** The instructions part of {@link renderTextProtocolPrompt}, after the catalog. */
export function textProtocolInstructions(
  options: Pick<TextProtocolPromptOptions, "scripts" | "maxLoadedSkills"> & {
    arguments?: boolean;
    search?: boolean;
  } = {},
): string {
  const maxLoaded = options.maxLoadedSkills ?? 10;
  const lines = [
    "## Skills",
    "",
    "Each skill in <available_skills> is a set of instructions, with scripts and reference files, for one kind of task. When a task matches a skill's description, load the skill before you start and follow its instructions. You work with skills by writing these instructions in your reply, each on its own line, as plain text:",
    "",
    ...explained(
      LOAD_SKILL,
      options.arguments
        ? ' For a skill that takes arguments (see its description), add them: <use_skill arguments="…">skill-name</use_skill>.'
        : "",
    ),
    ...(options.search
      ? explained(SEARCH_SKILLS, ` Add limit="N" for N results (${DEFAULT_SEARCH_LIMIT} by default).`)
      : []),
    ...explained(READ_SKILL_RESOURCE, ' Add offset="N" to go on from line N of a long file.'),
  ];
  if (options.scripts ?? true) lines.push(...explained(RUN_SKILL_SCRIPT));
  lines.push(...explained(UNLOAD_SKILL, `: at most ${maxLoaded} can be loaded at once.`), "");
  if (!(options.scripts ?? true))
    lines.push(
      "Scripts cannot be run here: when a skill's instructions say to run one, give the user the command instead.",
      "",
    );
  lines.push(
    `After your instructions, stop and wait. The system runs every instruction of your reply, in order, and sends the results in the next message: <skill_content>, <resource_content>, <script_result>, <skill_unloaded>,${options.search ? " <search_results>," : ""} or <skill_error>, <resource_error>, <script_error> with the reason. Never write these result tags yourself. When you need no more skills, answer the user without any instruction.`,
  );
  return lines.join("\n");
}

// An instruction as the prompt explains it: how to write it, then what it does, from its tool's definition.
function explained(definition: { textProtocol: TextProtocolInstruction }, more = ""): string[] {
  return [definition.textProtocol.form, `  ${definition.textProtocol.summary}${more}`];
}

function catalogDescription(skill: SkillMetadata, limit: number): string {
  const description = shortenText(oneLine(skill.description), limit);
  const hint = skill.argumentHint === undefined ? "" : shortenText(oneLine(skill.argumentHint), 80);
  return hint === "" ? description : `${description} (arguments: ${hint})`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
