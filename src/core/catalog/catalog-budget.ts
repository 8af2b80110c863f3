import type { TokenCounter } from "../text/count-tokens.js";

/**
 * Where a skill appears in a catalog that must fit a budget: its whole line, a line with a
 * shortened description, its name only, or nowhere (the model finds it with `search_skills`).
 */
export type CatalogTier = "full" | "short" | "name" | "search";

/** The skills of a catalog by tier, each group in catalog order. */
export interface CatalogGroups<S> {
  full: readonly S[];
  short: readonly S[];
  named: readonly S[];
  /** Skills left out of the text: only their number is shown. */
  hidden: readonly S[];
}

/** How one catalog format writes entries and puts the groups together. */
export interface CatalogLayout<S> {
  entry(skill: S, tier: "full" | "short" | "name"): string;
  render(groups: CatalogGroups<S>): string;
}

/** A catalog fitted to a budget: the groups, the text, and its token count. */
export interface CatalogPlan<S> extends CatalogGroups<S> {
  text: string;
  tokens: number;
}

/**
 * Fits a catalog into `budget` tokens, in steps that keep skills reachable:
 *
 * 1. every skill with its whole line, when that fits;
 * 2. else, when every name fits: every skill named, then, in priority order, whole lines for as
 *    many as fit, then shortened lines for as many of the rest as fit;
 * 3. else: whole lines for the pinned skills (up to half the budget), names in priority order
 *    while they fit, and a summary of the others (the layout's: how many, of which kinds), which
 *    only search finds.
 *
 * Tiers are contiguous in priority order, so which skills keep their lines is predictable; the
 * text depends only on the skills, their order and the budget, so it is byte-stable while the
 * library does not change. The final text is counted whole and never exceeds the budget.
 */
export function planCatalog<S>(input: {
  /** Skills in catalog (display) order. */
  skills: readonly S[];
  /** The same skills, most important first. */
  priority: readonly S[];
  /** Skills that keep whole lines even when names no longer all fit. */
  pinned: ReadonlySet<S>;
  budget: number | undefined;
  layout: CatalogLayout<S>;
  count: TokenCounter;
}): CatalogPlan<S> {
  const { skills, priority, layout, count, budget } = input;
  const plan = (tiers: Map<S, CatalogTier>): CatalogPlan<S> => {
    const groups = groupByTier(skills, tiers);
    const text = layout.render(groups);
    return { ...groups, text, tokens: count(text) };
  };
  const everything = new Map(skills.map((skill) => [skill, "full" as CatalogTier]));
  if (budget === undefined || skills.length === 0) return plan(everything);

  // Entries are counted one at a time and the sums stop at the budget, so planning costs about
  // as much as counting the text that fits, however large the library.
  const cost = (skill: S, tier: "full" | "short" | "name") => count(layout.entry(skill, tier)) + 1;
  const frame = (hidden: readonly S[]) =>
    count(layout.render({ full: [], short: [], named: skills.slice(0, 1), hidden })) - cost(skills[0]!, "name") + 8;
  const room = budget - frame(skills.slice(0, 1));
  // The entries alone already over the budget: the whole text is too, without rendering it.
  if (sumWithin(skills, (skill) => count(layout.entry(skill, "full")), budget) !== undefined) {
    const whole = plan(everything);
    if (whole.tokens <= budget) return whole;
  }

  const tiers = new Map<S, CatalogTier>(skills.map((skill) => [skill, "search"]));
  const names = new Map<S, number>();
  const namesCost = sumWithin(
    priority,
    (skill) => {
      const value = cost(skill, "name");
      names.set(skill, value);
      return value;
    },
    room,
  );
  if (namesCost !== undefined) {
    for (const skill of priority) tiers.set(skill, "name");
    let left = room - namesCost;
    left = upgrade(priority, tiers, "full", left, (skill) => cost(skill, "full") - names.get(skill)!);
    upgrade(priority, tiers, "short", left, (skill) => cost(skill, "short") - names.get(skill)!);
  } else {
    // The summary of the skills left out, at about its largest (every skill left out), comes first.
    const summarized = budget - frame(skills);
    let left = summarized;
    let pinnedLeft = Math.floor(summarized / 2);
    for (const skill of priority) {
      if (!input.pinned.has(skill)) continue;
      const value = cost(skill, "full");
      if (value > pinnedLeft) break;
      tiers.set(skill, "full");
      pinnedLeft -= value;
      left -= value;
    }
    for (const skill of priority) {
      if (tiers.get(skill) !== "search") continue;
      const value = names.get(skill) ?? cost(skill, "name");
      if (value > left) break;
      tiers.set(skill, "name");
      left -= value;
    }
  }
  // Counts of separate entries are not exactly additive: give back the lowest-priority upgrade,
  // then the lowest-priority name, until the text itself fits.
  let result = plan(tiers);
  while (result.tokens > budget) {
    const skill = lowest(priority, tiers, "full", "short") ?? lowest(priority, tiers, "name");
    if (skill === undefined) break;
    tiers.set(skill, tiers.get(skill) === "name" ? "search" : "name");
    result = plan(tiers);
  }
  return fillWithNames(result, priority, tiers, budget, plan, (skill) => cost(skill, "name"));
}

const FILL_ROUNDS = 2;
// Less room than this (a share of the budget) is not worth rendering and counting the text again.
const FILL_THRESHOLD = 0.02;

// The estimates above are cautious (entries counted apart, the summary of what is left out at its
// largest): name more of the skills left out, in priority order, while the whole text still fits.
function fillWithNames<S>(
  result: CatalogPlan<S>,
  priority: readonly S[],
  tiers: Map<S, CatalogTier>,
  budget: number,
  plan: (tiers: Map<S, CatalogTier>) => CatalogPlan<S>,
  nameCost: (skill: S) => number,
): CatalogPlan<S> {
  for (
    let round = 0;
    round < FILL_ROUNDS && result.hidden.length > 0 && budget - result.tokens >= budget * FILL_THRESHOLD;
    round++
  ) {
    let left = budget - result.tokens;
    const batch: S[] = [];
    for (const skill of priority) {
      if (tiers.get(skill) !== "search") continue;
      left -= nameCost(skill);
      if (left < 0) break;
      batch.push(skill);
    }
    if (batch.length === 0) break;
    for (const skill of batch) tiers.set(skill, "name");
    const trial = plan(tiers);
    if (trial.tokens > budget) {
      for (const skill of batch) tiers.set(skill, "search");
      break;
    }
    result = trial;
  }
  return result;
}

function lowest<S>(
  priority: readonly S[],
  tiers: ReadonlyMap<S, CatalogTier>,
  ...wanted: CatalogTier[]
): S | undefined {
  return priority.findLast((skill) => wanted.includes(tiers.get(skill)!));
}

// Raises skills still at `name` to `tier`, in order, until one does not fit.
function upgrade<S>(
  priority: readonly S[],
  tiers: Map<S, CatalogTier>,
  tier: CatalogTier,
  left: number,
  extra: (skill: S) => number,
): number {
  for (const skill of priority) {
    if (tiers.get(skill) !== "name") continue;
    const value = extra(skill);
    if (value > left) break;
    tiers.set(skill, tier);
    left -= value;
  }
  return left;
}

// The sum of `value` over `items`, or `undefined` as soon as it exceeds `limit`.
function sumWithin<S>(items: readonly S[], value: (item: S) => number, limit: number): number | undefined {
  let total = 0;
  for (const item of items) {
    total += value(item);
    if (total > limit) return undefined;
  }
  return total;
}

function groupByTier<S>(skills: readonly S[], tiers: ReadonlyMap<S, CatalogTier>): CatalogGroups<S> {
  const groups = { full: [] as S[], short: [] as S[], named: [] as S[], hidden: [] as S[] };
  const target = { full: groups.full, short: groups.short, name: groups.named, search: groups.hidden };
  for (const skill of skills) target[tiers.get(skill) ?? "full"].push(skill);
  return groups;
}
