import { planCatalog, type CatalogLayout } from "./catalog-budget.js";
import { groupSkills } from "./catalog-groups.js";
import { loadTokenCounter, type TokenCounter } from "../text/count-tokens.js";
import { withKnownTokenCounts } from "../text/known-token-counts.js";
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
  // Counts known from a snapshot spare loading the encoding; planning is deterministic, so a
  // plan that met an unknown piece is made again with the encoding and comes out the same.
  return (
    withKnownTokenCounts((count) => planRenderedCatalog(skills, options, count)) ??
    planRenderedCatalog(skills, options, await loadTokenCounter())
  );
}

/** {@link renderCatalog} with the tokens counted by `count`. */
export function planRenderedCatalog(
  skills: readonly SkillMetadata[],
  options: CatalogRenderOptions,
  count: TokenCounter,
): RenderedCatalog {
  const visible = options.format === "xml" ? skills : skills.filter((skill) => !skill.disableModelInvocation);
  const groups = groupSkills(visible);
  const layout: CatalogLayout<SkillMetadata> =
    options.format === "xml"
      ? xmlLayout({ ...options, ...(groups ? { groups } : {}) })
      : markdownLayout({ ...options, ...(groups ? { groups } : {}) });
  const pinned = new Set(options.pinned ?? []);
  const pinnedAt = new Set<number>();
  if (pinned.size > 0) visible.forEach((skill, at) => pinned.has(skill.name) && pinnedAt.add(at));
  const plan = planCatalog({
    skills: visible,
    priority: catalogPriority(visible, groups, options.pinned ?? [], options.sourceOrder ?? []),
    pinned: pinnedAt,
    budget: options.budget,
    layout,
    count,
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
 * that fit cover every collection rather than the start of the alphabet. Indexes into `skills`,
 * put in order by counting rather than by sorting (a library of 100,000 skills is ordered in a few
 * passes over arrays).
 */
// The rank of pinned skills, which are ordered apart.
const PINNED = -2;

function catalogPriority(
  skills: readonly SkillMetadata[],
  groups: ReadonlyMap<SkillMetadata, string> | undefined,
  pinned: readonly string[],
  sourceOrder: readonly string[],
): Int32Array {
  const rank = new Map(sourceOrder.map((id, index) => [id, index]));
  const pin = new Map(pinned.map((name, index) => [name, index]));
  // Per skill: its source's rank (-1 for a source not in `sourceOrder`, below every listed one;
  // pinned skills get none, they come first) and its turn within its group (a source and a folder).
  const turns = new Map<string, Map<string | undefined, number>>();
  const turn = new Int32Array(skills.length);
  const ranks = new Int32Array(skills.length);
  const pins: number[] = [];
  let lastSource: string | undefined;
  let bySource = new Map<string | undefined, number>();
  for (let at = 0; at < skills.length; at++) {
    const skill = skills[at]!;
    // Skills of one source come together: its map of groups is looked up once per run of them.
    if (skill.source !== lastSource) {
      lastSource = skill.source;
      const known = turns.get(skill.source);
      if (known) bySource = known;
      else turns.set(skill.source, (bySource = new Map()));
    }
    const group = groups?.get(skill);
    const next = bySource.get(group) ?? 0;
    bySource.set(group, next + 1);
    turn[at] = next;
    ranks[at] = rank.get(skill.source) ?? -1;
    if (pin.size > 0 && pin.has(skill.name)) {
      pins.push(at);
      ranks[at] = PINNED;
    }
  }
  pins.sort((a, b) => pin.get(skills[a]!.name)! - pin.get(skills[b]!.name)! || a - b);
  const order = new Int32Array(skills.length);
  order.set(pins);
  let filled = pins.length;
  // Later sources first; then by turn, then by index: a counting sort by turn, stable, so indexes
  // stay in order within a turn.
  const sourceRanks = [...new Set(ranks)].filter((value) => value !== PINNED).sort((a, b) => b - a);
  const counts = new Int32Array(skills.length + 1);
  for (const sourceRank of sourceRanks) {
    counts.fill(0);
    for (let at = 0; at < skills.length; at++) if (ranks[at] === sourceRank) counts[turn[at]! + 1]!++;
    for (let value = 1; value < counts.length; value++) counts[value]! += counts[value - 1]!;
    const members = counts[counts.length - 1]!;
    for (let at = 0; at < skills.length; at++) if (ranks[at] === sourceRank) order[filled + counts[turn[at]!]!++] = at;
    filled += members;
  }
  return order;
}
