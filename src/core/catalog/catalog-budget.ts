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
  /**
   * Skills left out of the text, by index into the catalog's skills: only their number is shown
   * (and, by a layout that knows the skills' groups, what kinds they are). Indexes, not skills: in
   * a library of 100,000 skills nearly all are left out, and the text is planned several times.
   */
  hidden: Int32Array;
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

/** What {@link planCatalogSteps} plans. */
export interface CatalogPlanInput<S> {
  /** Skills in catalog (display) order. */
  skills: readonly S[];
  /** Indexes into `skills`, most important first. */
  priority: ArrayLike<number>;
  /** Indexes of skills that keep whole lines even when names no longer all fit. */
  pinned: ReadonlySet<number>;
  budget: number | undefined;
  layout: CatalogLayout<S>;
  count: TokenCounter;
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
 *
 * In steps: it stops after each pass that renders the text (or its summary of the skills left
 * out), which at 100,000 skills takes milliseconds, so a caller may let the event loop run in
 * between (`runSteps` runs it at once).
 */
export function* planCatalogSteps<S>(input: CatalogPlanInput<S>): Generator<void, CatalogPlan<S>, void> {
  const { skills, priority, layout, count, budget } = input;
  // Tiers by index into `skills` (a typed array, not a map of skills: a catalog of 100,000 skills
  // is planned in a few passes over arrays).
  const plan = (tiers: Uint8Array): CatalogPlan<S> => {
    const groups = groupByTier(skills, tiers);
    const text = layout.render(groups);
    return { ...groups, text, tokens: count(text) };
  };
  if (budget === undefined || skills.length === 0) return plan(new Uint8Array(skills.length).fill(FULL));

  // Entries are counted one at a time and the sums stop at the budget, so planning costs about
  // as much as counting the text that fits, however large the library.
  const cost = (at: number, tier: "full" | "short" | "name") => count(layout.entry(skills[at]!, tier)) + 1;
  const frame = (hidden: Int32Array) =>
    count(layout.render({ full: [], short: [], named: skills.slice(0, 1), hidden })) - cost(0, "name") + 8;
  const room = budget - frame(Int32Array.of(0));
  // The entries alone already over the budget: the whole text is too, without rendering it.
  if (sumWithin(skills.length, (at) => count(layout.entry(skills[at]!, "full")), budget) !== undefined) {
    const whole = plan(new Uint8Array(skills.length).fill(FULL));
    if (whole.tokens <= budget) return whole;
    yield;
  }

  const tiers = new Uint8Array(skills.length).fill(SEARCH);
  // Each skill's name cost, once counted (-1 before).
  const names = new Int32Array(skills.length).fill(-1);
  const nameCost = (at: number) => (names[at]! >= 0 ? names[at]! : (names[at] = cost(at, "name")));
  const namesCost = sumWithin(priority.length, (rank) => nameCost(priority[rank]!), room);
  if (namesCost !== undefined) {
    tiers.fill(NAME);
    let left = room - namesCost;
    left = upgrade(priority, tiers, FULL, left, (at) => cost(at, "full") - names[at]!);
    upgrade(priority, tiers, SHORT, left, (at) => cost(at, "short") - names[at]!);
  } else {
    // The summary of the skills left out, at about its largest (every skill left out), comes first.
    const summarized = budget - frame(everyIndex(skills.length));
    yield;
    let left = summarized;
    let pinnedLeft = Math.floor(summarized / 2);
    for (let rank = 0; rank < priority.length && input.pinned.size > 0; rank++) {
      const at = priority[rank]!;
      if (!input.pinned.has(at)) continue;
      const value = cost(at, "full");
      if (value > pinnedLeft) break;
      tiers[at] = FULL;
      pinnedLeft -= value;
      left -= value;
    }
    for (let rank = 0; rank < priority.length; rank++) {
      const at = priority[rank]!;
      if (tiers[at] !== SEARCH) continue;
      const value = nameCost(at);
      if (value > left) break;
      tiers[at] = NAME;
      left -= value;
    }
  }
  // Counts of separate entries are not exactly additive: give back the lowest-priority upgrade,
  // then the lowest-priority name, until the text itself fits.
  let result = plan(tiers);
  yield;
  while (result.tokens > budget) {
    let at = lowest(priority, tiers, FULL, SHORT);
    if (at === undefined) at = lowest(priority, tiers, NAME, NAME);
    if (at === undefined) break;
    tiers[at] = tiers[at] === NAME ? SEARCH : NAME;
    result = plan(tiers);
    yield;
  }
  return yield* fillWithNames(result, priority, tiers, budget, plan, nameCost);
}

// Tiers as small numbers, in the order skills are given them up.
const FULL = 0;
const SHORT = 1;
const NAME = 2;
const SEARCH = 3;

const FILL_ROUNDS = 2;
// Less room than this (a share of the budget) is not worth rendering and counting the text again.
const FILL_THRESHOLD = 0.02;

// The estimates above are cautious (entries counted apart, the summary of what is left out at its
// largest): name more of the skills left out, in priority order, while the whole text still fits.
function* fillWithNames<S>(
  result: CatalogPlan<S>,
  priority: ArrayLike<number>,
  tiers: Uint8Array,
  budget: number,
  plan: (tiers: Uint8Array) => CatalogPlan<S>,
  nameCost: (at: number) => number,
): Generator<void, CatalogPlan<S>, void> {
  for (
    let round = 0;
    round < FILL_ROUNDS && result.hidden.length > 0 && budget - result.tokens >= budget * FILL_THRESHOLD;
    round++
  ) {
    let left = budget - result.tokens;
    const batch: number[] = [];
    for (let rank = 0; rank < priority.length; rank++) {
      const at = priority[rank]!;
      if (tiers[at] !== SEARCH) continue;
      left -= nameCost(at);
      if (left < 0) break;
      batch.push(at);
    }
    if (batch.length === 0) break;
    for (const at of batch) tiers[at] = NAME;
    const trial = plan(tiers);
    yield;
    if (trial.tokens > budget) {
      for (const at of batch) tiers[at] = SEARCH;
      break;
    }
    result = trial;
  }
  return result;
}

// The lowest-priority skill whose tier is `one` or `other`.
function lowest(priority: ArrayLike<number>, tiers: Uint8Array, one: number, other: number): number | undefined {
  for (let rank = priority.length - 1; rank >= 0; rank--) {
    const tier = tiers[priority[rank]!];
    if (tier === one || tier === other) return priority[rank]!;
  }
  return undefined;
}

// Raises skills still at NAME to `tier`, in order, until one does not fit.
function upgrade(
  priority: ArrayLike<number>,
  tiers: Uint8Array,
  tier: number,
  left: number,
  extra: (at: number) => number,
): number {
  for (let rank = 0; rank < priority.length; rank++) {
    const at = priority[rank]!;
    if (tiers[at] !== NAME) continue;
    const value = extra(at);
    if (value > left) break;
    tiers[at] = tier;
    left -= value;
  }
  return left;
}

// 0 to `length - 1`: filled by a loop, which Int32Array.from with a mapping function is many times slower than.
function everyIndex(length: number): Int32Array {
  const indexes = new Int32Array(length);
  for (let at = 0; at < length; at++) indexes[at] = at;
  return indexes;
}

// The sum of `value` over indexes 0 to `length - 1`, or `undefined` as soon as it exceeds `limit`.
function sumWithin(length: number, value: (at: number) => number, limit: number): number | undefined {
  let total = 0;
  for (let at = 0; at < length; at++) {
    total += value(at);
    if (total > limit) return undefined;
  }
  return total;
}

function groupByTier<S>(skills: readonly S[], tiers: Uint8Array): CatalogGroups<S> {
  const groups = { full: [] as S[], short: [] as S[], named: [] as S[] };
  const target = [groups.full, groups.short, groups.named];
  let hidden = 0;
  for (let at = 0; at < skills.length; at++) if (tiers[at] === SEARCH) hidden++;
  const left = new Int32Array(hidden);
  hidden = 0;
  for (let at = 0; at < skills.length; at++) {
    const tier = tiers[at]!;
    if (tier === SEARCH) left[hidden++] = at;
    else target[tier]!.push(skills[at]!);
  }
  return { ...groups, hidden: left };
}
