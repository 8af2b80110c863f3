import type { CatalogLayout } from "./catalog-budget.js";
import { type HiddenSummary, type SkillGroups, summarizeHidden } from "./catalog-groups.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { AllowedToolsPolicy } from "../tools/tool-policy.js";

/**
 * The guidance that precedes the catalog, said once for all skills. `{load}` and `{unload}`
 * are replaced by the tool names.
 */
export const CATALOG_GUIDANCE = `## Skills

Skills are packaged instructions, with scripts and reference files, for specialised tasks. Each line below names a skill and when to use it. When a task matches a skill, call \`{load}\` with its name before you start and follow the instructions it returns; read its resources only when those instructions call for them. Call \`{unload}\` when you no longer need a skill, to free a slot.`;

/** Options of {@link renderCatalogMarkdown}. */
export interface MarkdownCatalogOptions {
  /** Replaces {@link CATALOG_GUIDANCE}; `{load}` and `{unload}` are substituted. */
  guidance?: string;
  /** @default "load_skill" */
  loadToolName?: string;
  /** @default "unload_skill" */
  unloadToolName?: string;
  /**
   * Longest description shown, in characters; longer ones are cut at a word with `…`. The
   * model gets the whole description when it loads the skill. About 50 tokens a skill.
   * @default 250
   */
  maxDescriptionLength?: number;
  /** Folders where the model can create skills, named when there are none yet. */
  createSkillsIn?: readonly string[];
  /** The tool the model reads a loaded skill's resources with. @default "read_file" */
  resourceReadTool?: string;
  /** The tool the model runs a loaded skill's scripts with, if any. */
  scriptRunTool?: string;
  /** Whether `allowed-tools` are recommendations or limits. @default "recommend" */
  allowedToolsPolicy?: AllowedToolsPolicy;
}

/** Default of {@link MarkdownCatalogOptions.maxDescriptionLength}. */
export const DEFAULT_MAX_DESCRIPTION_LENGTH = 250;

/**
 * The catalog as the model sees it: the guidance once, then one `- name: description` line
 * per skill in the order given (the catalog's stable, sorted order), with the skill's
 * argument hint when it has one (`- name (arguments: [file]): description`). Skills marked
 * `disable-model-invocation` are left out: only a user may invoke them. To fit a token budget,
 * use `renderCatalog`.
 */
export function renderCatalogMarkdown(
  skills: readonly MarkdownCatalogSkill[],
  options: MarkdownCatalogOptions = {},
): string {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  return markdownLayout(options).render({ full: visible, short: [], named: [], hidden: new Int32Array(0) });
}

/** What the Markdown catalog shows of a skill. */
export type MarkdownCatalogSkill = Pick<
  SkillMetadata,
  "name" | "description" | "disableModelInvocation" | "argumentHint"
>;

/** Longest description of a shortened line, when a catalog is over its budget. */
export const SHORT_DESCRIPTION_LENGTH = 80;

/** The Markdown catalog's entries and frame; the groups it renders are the model-visible skills. */
export function markdownLayout(
  options: MarkdownCatalogOptions & { searchTool?: string; groups?: SkillGroups },
): CatalogLayout<MarkdownCatalogSkill> {
  const guidance = (options.guidance ?? CATALOG_GUIDANCE)
    .replaceAll("{load}", options.loadToolName ?? "load_skill")
    .replaceAll("{unload}", options.unloadToolName ?? "unload_skill");
  const limit = options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH;
  const scripts = options.scriptRunTool
    ? ` and run its scripts, from the skill's folder, with \`${options.scriptRunTool}\``
    : "";
  const allowed =
    options.allowedToolsPolicy === "restrict"
      ? "its `allowed-tools` limit the tools you may use while it is loaded"
      : "its `allowed-tools` are recommendations";
  const footer = `Read a loaded skill's resources with \`${options.resourceReadTool ?? "read_file"}\`${scripts}; ${allowed}.`;
  const entry = (skill: MarkdownCatalogSkill, tier: "full" | "short" | "name") =>
    tier === "name"
      ? skill.name
      : `- ${skill.name}${argumentHint(skill.argumentHint)}: ${shortenText(toOneLine(skill.description), tier === "full" ? limit : Math.min(limit, SHORT_DESCRIPTION_LENGTH))}`;
  return {
    entry,
    render({ full, short, named, hidden }) {
      if (full.length + short.length + named.length + hidden.length === 0)
        return `${guidance}\n\n${noSkillsLine(options.createSkillsIn)}`;
      const lines = [...full.map((skill) => entry(skill, "full")), ...short.map((skill) => entry(skill, "short"))];
      if (named.length > 0)
        lines.push(
          `- More skills, by name only (\`${options.loadToolName ?? "load_skill"}\` shows what one does): ${named.map((skill) => skill.name).join(", ")}`,
        );
      if (hidden.length > 0) {
        const find = options.searchTool ? `: find them with \`${options.searchTool}\`` : "";
        lines.push(
          `- ${hidden.length} more ${hidden.length === 1 ? "skill is" : "skills are"} not listed here${find}.${hiddenGroups(summarizeHidden(hidden, options.groups))}`,
        );
      }
      return `${guidance}\n\n${lines.join("\n")}\n${footer}`;
    },
  };
}

// What kinds of skills are left out, so the model knows when searching is worth it.
function hiddenGroups({ groups, rest }: HiddenSummary): string {
  if (groups.length === 0) return "";
  const skills = (count: number) => `${count} ${count === 1 ? "skill" : "skills"}`;
  const lines = groups
    .filter((group) => group.examples.length > 0)
    .map((group) => `\n  - ${group.label}: ${skills(group.count)}, e.g. ${group.examples.join(", ")}`);
  const others = groups.filter((group) => group.examples.length === 0);
  if (others.length > 0)
    lines.push(`\n  - also: ${others.map((group) => `${group.label} (${group.count})`).join(", ")}`);
  if (rest.count > 0) lines.push(`\n  - ${rest.groups} more groups: ${skills(rest.count)}`);
  return ` Among them:${lines.join("")}`;
}

// The model passes these as load_skill's `arguments`; the hint says what they are.
function argumentHint(hint: string | undefined): string {
  const text = hint === undefined ? "" : shortenText(toOneLine(hint), MAX_HINT_LENGTH);
  return text === "" ? "" : ` (arguments: ${text})`;
}

const MAX_HINT_LENGTH = 80;

/**
 * Collapses whitespace, line breaks included, so a description stays one list item and
 * cannot start a heading or a new item of its own.
 */
function toOneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts text longer than `limit` characters at the last word boundary, adding `…`. */
export function shortenText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Never cut between the two halves of a surrogate pair (an emoji, say).
  const end = /[\ud800-\udbff]/.test(text[limit - 2] ?? "") ? limit - 2 : limit - 1;
  const cut = text.slice(0, end);
  const space = cut.lastIndexOf(" ");
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

function noSkillsLine(createIn: readonly string[] | undefined): string {
  if (!createIn?.length) return "(No skills are available.)";
  const folders = createIn.map((folder) => `\`${folder}\``).join(" or ");
  return `(No skills are available yet. You can create skills in ${folders}: a folder per skill, named as the skill, with its instructions in a \`SKILL.md\`.)`;
}
