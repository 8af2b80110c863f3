import { planCatalog, type CatalogLayout } from "./catalog-budget.js";
import { groupSkills } from "./catalog-groups.js";
import { loadTokenCounter } from "../text/count-tokens.js";
import { markdownLayout, type MarkdownCatalogOptions } from "./prompt-markdown.js";
import { xmlLayout } from "./prompt-xml.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/** Default of {@link CatalogRenderOptions.budget} where skillset applies one (the middleware, the engine). */
export const DEFAULT_CATALOG_BUDGET = 5000;

/** The smallest budget hosts accept: below it, the guidance alone would not fit. */
export const MIN_CATALOG_BUDGET = 500;

/** Options of {@link renderCatalog}. */
export interface CatalogRenderOptions extends MarkdownCatalogOptions {
  /** `"markdown"`: the middleware's catalog; `"xml"`: the reference's `<available_skills>`. @default "markdown" */
  format?: "markdown" | "xml";
  /**
   * Most tokens (o200k_base) the catalog may take. Under it nothing changes; over it, lines are
   * shortened, then skills named only, then counted only (see the README). No budget: no limit.
   */
  budget?: number;
  /** Skills that keep their whole lines first, most important first. */
  pinned?: readonly string[];
  /**
   * Source ids, lowest precedence first, as the catalog's sources are: skills of later sources
   * (usually a project's own) keep their lines before those of earlier ones.
   */
  sourceOrder?: readonly string[];
  /** The search tool to point to for skills left out. */
  searchTool?: string;
}

/** A rendered catalog: its text, its size, and where each skill went. */
export interface RenderedCatalog {
  text: string;
  tokens: number;
  /** Names of skills with whole lines. */
  full: string[];
  /** Names of skills whose descriptions were shortened. */
  short: string[];
  /** Names of skills shown by name only. */
  named: string[];
  /** Names of skills only counted: search finds them. */
  hidden: string[];
}

/**
 * Renders a catalog within a token budget. The Markdown format shows only skills the model may
 * load (not `disable-model-invocation` ones); the XML format shows every skill, as the reference does.
 */
export async function renderCatalog(
  skills: readonly SkillMetadata[],
  options: CatalogRenderOptions = {},
): Promise<RenderedCatalog> {
  const visible = options.format === "xml" ? skills : skills.filter((skill) => !skill.disableModelInvocation);
  const groups = groupSkills(visible);
  const layout: CatalogLayout<SkillMetadata> =
    options.format === "xml"
      ? xmlLayout({ ...options, ...(groups ? { groups } : {}) })
      : markdownLayout({ ...options, ...(groups ? { groups } : {}) });
  const pinned = new Set(options.pinned ?? []);
  const plan = planCatalog({
    skills: visible,
    priority: catalogPriority(visible, groups, options.pinned ?? [], options.sourceOrder ?? []),
    pinned: new Set(visible.filter((skill) => pinned.has(skill.name))),
    budget: options.budget,
    layout,
    count: await loadTokenCounter(),
  });
  const names = (group: readonly SkillMetadata[]) => group.map((skill) => skill.name);
  return {
    text: plan.text,
    tokens: plan.tokens,
    full: names(plan.full),
    short: names(plan.short),
    named: names(plan.named),
    hidden: names(plan.hidden),
  };
}

/**
 * Pinned skills in their order, then skills of later sources before earlier ones; within a source,
 * its groups take turns (the first skill of each group, then the second of each, …), so the names
 * that fit cover every collection rather than the start of the alphabet.
 */
function catalogPriority(
  skills: readonly SkillMetadata[],
  groups: ReadonlyMap<SkillMetadata, string> | undefined,
  pinned: readonly string[],
  sourceOrder: readonly string[],
): SkillMetadata[] {
  const rank = new Map(sourceOrder.map((id, index) => [id, index]));
  const pin = new Map(pinned.map((name, index) => [name, index]));
  const turns = new Map<string, number>();
  const indexed = skills.map((skill, index) => {
    const group = `${skill.source}\n${groups?.get(skill) ?? ""}`;
    const turn = turns.get(group) ?? 0;
    turns.set(group, turn + 1);
    return { skill, index, turn, pin: pin.get(skill.name) ?? Infinity, source: rank.get(skill.source) ?? -1 };
  });
  indexed.sort((a, b) => a.pin - b.pin || b.source - a.source || a.turn - b.turn || a.index - b.index);
  return indexed.map((entry) => entry.skill);
}
