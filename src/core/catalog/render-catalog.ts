import { runSteps, runStepsInTurns } from "../run-steps.js";
import { planCatalogSteps, type CatalogLayout } from "./catalog-budget.js";
import { groupSkillsInSteps, type SkillGroups } from "./catalog-groups.js";
import type { TokenCounter } from "../text/count-tokens.js";
import { countWithKnownFirst } from "../text/known-token-counts.js";
import { markdownLayout, type MarkdownCatalogOptions } from "./prompt-markdown.js";
import { xmlLayout } from "./prompt-xml.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { notedParentFolder } from "./skill-parent-folder.js";

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
  const pause = skills.length >= PAUSED_FROM;
  const prepared = await runStepsInTurns(prepareCatalog(skills, options), pause);
  // Counts known from a snapshot spare loading the encoding; planning is deterministic, so a
  // plan that met an unknown piece is made again with the encoding and comes out the same.
  return countWithKnownFirst((count) => runStepsInTurns(planPrepared(prepared, options, count), pause));
}

/** {@link renderCatalog} with the tokens counted by `count`. */
export function planRenderedCatalog(
  skills: readonly SkillMetadata[],
  options: CatalogRenderOptions,
  count: TokenCounter,
): RenderedCatalog {
  return runSteps(planPrepared(runSteps(prepareCatalog(skills, options)), options, count));
}

// Libraries from this size let the event loop run between the passes over their skills and the
// plan's renders, each of which takes milliseconds at 100,000 skills (together they held it for
// over 50 ms).
const PAUSED_FROM = 5000;

/** What a catalog's plan needs besides token counts, the same for every counter. */
interface PreparedCatalog {
  visible: readonly SkillMetadata[];
  names: string[];
  groups: SkillGroups | undefined;
  priority: Int32Array;
  pinned: Set<number>;
}

// The passes over the skills, in steps: renderCatalog pauses between them.
function* prepareCatalog(
  skills: readonly SkillMetadata[],
  options: CatalogRenderOptions,
): Generator<void, PreparedCatalog, void> {
  const { visible, names, paths, parents, sources } = columns(skills, options.format === "xml");
  yield;
  const groups = yield* groupSkillsInSteps(names, paths, parents);
  yield;
  const pinnedNames = new Set(options.pinned ?? []);
  const pinned = new Set<number>();
  if (pinnedNames.size > 0) names.forEach((name, at) => pinnedNames.has(name) && pinned.add(at));
  const priority = catalogPriority(names, sources, groups, options.pinned ?? [], options.sourceOrder ?? []);
  return { visible, names, groups, priority, pinned };
}

function* planPrepared(
  { visible, names, groups, priority, pinned }: PreparedCatalog,
  options: CatalogRenderOptions,
  count: TokenCounter,
): Generator<void, RenderedCatalog, void> {
  const layout: CatalogLayout<SkillMetadata> =
    options.format === "xml"
      ? xmlLayout({ ...options, ...(groups ? { groups } : {}) })
      : markdownLayout({ ...options, ...(groups ? { groups } : {}) });
  const plan = yield* planCatalogSteps({ skills: visible, priority, pinned, budget: options.budget, layout, count });
  const named = (group: readonly SkillMetadata[]) => group.map((skill) => skill.name);
  return {
    text: plan.text,
    tokens: plan.tokens,
    full: named(plan.full),
    short: named(plan.short),
    named: named(plan.named),
    hidden: namesAt(plan.hidden, names),
  };
}

// The names at `indexes`: a loop, since Array.from with a mapping function costs milliseconds when
// nearly all of 100,000 skills are hidden.
function namesAt(indexes: Int32Array, names: readonly string[]): string[] {
  const picked = new Array<string>(indexes.length);
  for (let at = 0; at < indexes.length; at++) picked[at] = names[indexes[at]!]!;
  return picked;
}

// The skills the catalog shows and, side by side, the fields the plan reads of each: one pass over
// the skills' objects, which in a library of 100,000 are spread over the heap (each pass over them
// missed the cache on nearly every skill), then passes over compact arrays.
function columns(skills: readonly SkillMetadata[], all: boolean) {
  // Allocated whole and cut to size: arrays grown push by push were copied over and over.
  const names = new Array<string>(skills.length);
  const paths = new Array<string>(skills.length);
  const parents = new Array<string | undefined>(skills.length);
  const sources = new Array<string>(skills.length);
  let kept = 0;
  for (let at = 0; at < skills.length; at++) {
    const skill = skills[at]!;
    if (!all && skill.disableModelInvocation) continue;
    names[kept] = skill.name;
    paths[kept] = skill.path;
    parents[kept] = notedParentFolder(skill);
    sources[kept] = skill.source;
    kept++;
  }
  names.length = paths.length = parents.length = sources.length = kept;
  // Usually every skill is shown: copied whole, which is many times faster than filling an array
  // of 100,000 skill objects one by one (a copy all the same: renderCatalog pauses between passes).
  const visible = kept === skills.length ? skills.slice() : skills.filter((skill) => !skill.disableModelInvocation);
  return { visible, names, paths, parents, sources };
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
  names: readonly string[],
  sources: readonly string[],
  groups: SkillGroups | undefined,
  pinned: readonly string[],
  sourceOrder: readonly string[],
): Int32Array {
  const rank = new Map(sourceOrder.map((id, index) => [id, index]));
  const pin = new Map(pinned.map((name, index) => [name, index]));
  // Per skill: its source's rank (-1 for a source not in `sourceOrder`, below every listed one;
  // pinned skills get none, they come first) and its turn within its group (a source and a folder).
  // Per source, the turns given in each group so far (the last slot: skills in no group).
  const turns = new Map<string, Int32Array>();
  const turn = new Int32Array(names.length);
  const ranks = new Int32Array(names.length);
  const sourceRanks = new Set<number>();
  const pins: number[] = [];
  const noGroup = groups ? groups.labels.length : 0;
  let lastSource: string | undefined;
  let bySource: Int32Array = new Int32Array(0);
  let sourceRank = -1;
  for (let at = 0; at < names.length; at++) {
    const source = sources[at]!;
    // Skills of one source come together: its turns and rank are looked up once per run of them.
    if (source !== lastSource) {
      lastSource = source;
      const known = turns.get(source);
      if (known) bySource = known;
      else turns.set(source, (bySource = new Int32Array(noGroup + 1)));
      sourceRank = rank.get(source) ?? -1;
      sourceRanks.add(sourceRank);
    }
    turn[at] = bySource[groups ? groups.of[at]! : noGroup]!++;
    ranks[at] = sourceRank;
    if (pin.size > 0 && pin.has(names[at]!)) {
      pins.push(at);
      ranks[at] = PINNED;
    }
  }
  pins.sort((a, b) => pin.get(names[a]!)! - pin.get(names[b]!)! || a - b);
  const order = new Int32Array(names.length);
  order.set(pins);
  let filled = pins.length;
  // Later sources first; then by turn, then by index: a counting sort by turn, stable, so indexes
  // stay in order within a turn.
  const counts = new Int32Array(names.length + 1);
  for (const sourceRank of [...sourceRanks].sort((a, b) => b - a)) {
    counts.fill(0);
    for (let at = 0; at < names.length; at++) if (ranks[at] === sourceRank) counts[turn[at]! + 1]!++;
    for (let value = 1; value < counts.length; value++) counts[value]! += counts[value - 1]!;
    const members = counts[counts.length - 1]!;
    for (let at = 0; at < names.length; at++) if (ranks[at] === sourceRank) order[filled + counts[turn[at]!]!++] = at;
    filled += members;
  }
  return order;
}
