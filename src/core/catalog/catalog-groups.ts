import { printable } from "../text/safe-text.js";
import { inFolder, parentKey, parentOf } from "./skill-parent-folder.js";

/** Per skill, the folder noted as holding its folder (`notedParentFolder`), if any. */
export type NotedParents = ReadonlyArray<string | undefined>;

/**
 * The groups of a catalog's skills (see {@link groupSkillsInSteps}), by index into the skills: arrays
 * rather than a map keyed by skill, so a library of 100,000 skills is grouped and summarized in a
 * few passes over them.
 */
export interface SkillGroups {
  /** Per skill, its group (skills of one group take turns in the catalog's priority). */
  of: Int32Array;
  /** Per group, its label in the summary of skills left out (two groups may share "other"). */
  labels: readonly string[];
  /** Per skill, its name. */
  names: readonly string[];
}

/**
 * Groups of a catalog's skills, so that a catalog over its budget can say what kinds of skills it
 * leaves out and share its named lines fairly between collections. A skill's group is the folder
 * that holds its folder, written from where the catalog's folders part (`anthropics/skills/`,
 * `my-team/skills/`); when every skill sits in one folder, the first word of the name (`azure-*`).
 * `undefined` when neither tells skills apart. `names`, `paths` and `noted` are the skills', in
 * catalog order.
 * In steps of some 16,000 skills: a pass over 100,000 skills' paths took 65 to 110 ms on a slow
 * machine, which the caller breaks with turns of the event loop.
 */
export function* groupSkillsInSteps(
  names: readonly string[],
  paths: readonly string[],
  noted: NotedParents,
): Generator<void, SkillGroups | undefined, void> {
  // Most catalogs have one folder of skills: told apart in the same pass that reads the names'
  // prefixes, comparing each skill's parent folder with the first one's in place.
  const first = paths.length > 0 ? (noted[0] ?? parentOf(paths[0]!)) : undefined;
  const prefixes = first === undefined ? [] : yield* namePrefixes(names, paths, noted, first);
  if (prefixes) return byNamePrefix(names, prefixes);
  const { parentIds, parents } = yield* distinctParents(paths, noted);
  // Segments every parent folder shares are dropped: they tell the groups nothing.
  let shared = 0;
  while (parents.every((parts) => shared < parts.length && parts[shared] === parents[0]![shared])) shared++;
  // A folder that is itself the shared part (skills beside the collections) goes by its own name.
  // One group per label: folders whose labels read alike are one group, as they were one key.
  const ids = new Map<string, number>();
  const labels: string[] = [];
  const groupOf = parents.map((parts) => {
    const text = label(`${parts.length > shared ? parts.slice(shared).join("/") : parts.at(-1)}/`);
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = labels.push(text) - 1));
    return id;
  });
  const of = new Int32Array(paths.length);
  for (let at = 0; at < paths.length; at++) of[at] = groupOf[parentIds[at]!]!;
  return { of, labels, names };
}

// Each skill's parent folder (noted, or its path's segments less the last two, split at `/` or
// `\`), as an index into the distinct ones, numbered as first met: a library has few folders of
// skills, so each is split and labelled once, not once per skill. A skill whose parent is the one
// before's (the usual case in a folder's order) is told so by a comparison, with no copy.
function* distinctParents(
  paths: readonly string[],
  noted: NotedParents,
): Generator<void, { parentIds: Int32Array; parents: string[][] }, void> {
  const parentIds = new Int32Array(paths.length);
  const parents: string[][] = [];
  // Keyed by the parent's text; `undefined`: a path of fewer than two separators, whose parent has no segments.
  const known = new Map<string | undefined, number>();
  let last: string | undefined;
  let lastId = -1;
  for (let at = 0; at < paths.length; at++) {
    if ((at & STEP) === STEP) yield;
    if (last !== undefined && inParent(paths, noted, at, last)) {
      parentIds[at] = lastId;
      continue;
    }
    const key = noted[at] ?? parentKey(paths[at]!);
    let id = known.get(key);
    if (id === undefined) known.set(key, (id = parents.push(key === undefined ? [] : key.split("/")) - 1));
    parentIds[at] = id;
    last = key;
    lastId = id;
  }
  return { parentIds, parents };
}

// Whether skill `at` lies in `parent`: by identity when its folder was noted (the skills of a
// folder share one string; equal strings are equal all the same), else by its path, which
// inFolder may not tell: false does not say it lies elsewhere.
function inParent(paths: readonly string[], noted: NotedParents, at: number, parent: string): boolean {
  const folder = noted[at];
  return folder !== undefined ? folder === parent : inFolder(paths[at]!, parent);
}

// Whether the parent folder of skill `at` is `parent`: inParent, and parentOf for a path it cannot tell.
function sameParent(paths: readonly string[], noted: NotedParents, at: number, parent: string): boolean {
  return inParent(paths, noted, at, parent) || (noted[at] === undefined && parentOf(paths[at]!) === parent);
}

// The passes over every skill stop after each 16,384 (a mask: `at & STEP` is STEP once in so many).
const STEP = 16_383;

// Folder names may hold line breaks (a name is a file system's, not a skill's): escaped, so a
// label cannot start a line of its own in the prompt.
function label(text: string): string {
  return printable(text).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

// Each name's prefix (`azure-*`, undefined without a hyphen), or undefined as soon as a skill lies
// in another folder than `parent`. A prefix is cut out only when the name does not start with the
// name before's (sorted names that share one come together).
function* namePrefixes(
  names: readonly string[],
  paths: readonly string[],
  noted: NotedParents,
  parent: string,
): Generator<void, Array<string | undefined> | undefined, void> {
  const prefixes = new Array<string | undefined>(names.length);
  let last: string | undefined;
  let stem = "";
  for (let at = 0; at < names.length; at++) {
    if ((at & STEP) === STEP) yield;
    if (!sameParent(paths, noted, at, parent)) return undefined;
    const name = names[at]!;
    // The prefix has one hyphen, at its end: a name that starts with it has it too.
    if (last !== undefined && name.startsWith(stem)) {
      prefixes[at] = last;
      continue;
    }
    const hyphen = name.indexOf("-");
    if (hyphen < 0) prefixes[at] = undefined;
    else {
      stem = name.slice(0, hyphen + 1);
      last = `${stem}*`;
      prefixes[at] = last;
    }
  }
  return prefixes;
}

// Groups by prefix: a prefix no other skill has goes to "other", and so, in the summary, do names
// without a hyphen (a group of their own in the turns, when there are several).
function byNamePrefix(names: readonly string[], prefixes: ReadonlyArray<string | undefined>): SkillGroups | undefined {
  const sizes = new Map<string | undefined, number>();
  // Counted by runs: one map update per run of equal prefixes.
  for (let at = 0; at < prefixes.length;) {
    const prefix = prefixes[at];
    let end = at + 1;
    while (end < prefixes.length && prefixes[end] === prefix) end++;
    sizes.set(prefix, (sizes.get(prefix) ?? 0) + end - at);
    at = end;
  }
  const shared = [...sizes].filter(([label, size]) => label !== undefined && size > 1).length;
  // A prefix that no other skill has, or one all skills have, says nothing.
  if (shared < 2) return undefined;
  const ids = new Map<string | undefined, number>();
  const labels: string[] = [];
  const of = new Int32Array(prefixes.length);
  for (let at = 0; at < prefixes.length; at++) {
    const group = (sizes.get(prefixes[at]) ?? 0) > 1 ? prefixes[at] : "other";
    let id = ids.get(group);
    if (id === undefined) ids.set(group, (id = labels.push(group ?? "other") - 1));
    of[at] = id;
  }
  return { of, labels, names };
}

/** One group of skills that a catalog leaves out: its label, how many, and a few names. */
export interface HiddenGroup {
  label: string;
  count: number;
  /** A few names, spread over the group in priority order; only the largest groups have them. */
  examples: string[];
}

/** What a catalog says about the skills it leaves out: its groups, largest first, and how many others. */
export interface HiddenSummary {
  groups: HiddenGroup[];
  /** Skills in groups past the ones listed, and how many groups those are. */
  rest: { groups: number; count: number };
}

// The largest groups get a few names each; the next ones are listed by name and count only, so
// a library of many collections still has every one named (about 6 tokens a group).
const GROUPS_WITH_EXAMPLES = 8;
const EXAMPLES = 3;
const MAX_GROUPS = 80;

/**
 * The groups of the skills left out (`hidden`: their indexes in catalog order), largest first,
 * the largest with a few names spread over each; past 80, counted. Two passes over the indexes.
 */
export function summarizeHidden(hidden: Int32Array, groups: SkillGroups | undefined): HiddenSummary {
  if (!groups) return { groups: [], rest: { groups: 0, count: 0 } };
  // Groups that share a label are one group here (by a map: a mirror of many repositories has
  // thousands of folders, and a search of the labels for each was quadratic).
  const ids = new Map<string, number>();
  const labelOf = Int32Array.from(groups.labels, (text) => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  });
  const labels = [...ids.keys()];
  const counts = new Int32Array(labels.length);
  for (let rank = 0; rank < hidden.length; rank++) counts[labelOf[groups.of[hidden[rank]!]!]!]!++;
  const sorted = labels
    .map((label, index) => ({ label, index, count: counts[index]! }))
    .filter((group) => group.count > 0)
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1));
  const shown = sorted.slice(0, MAX_GROUPS);
  const examples = examplesOf(hidden, groups, labelOf, labels.length, shown.slice(0, GROUPS_WITH_EXAMPLES));
  return {
    groups: shown.map(({ label, index, count }) => ({ label, count, examples: examples.get(index) ?? [] })),
    rest: {
      groups: sorted.length - shown.length,
      count: sorted.slice(MAX_GROUPS).reduce((sum, group) => sum + group.count, 0),
    },
  };
}

// For each of `chosen`, a few of its names spread over it, not its first few, which would share a
// beginning: the members a third and two thirds of the way in, besides the first. Per skill left
// out, one lookup in a typed array says whether its label is chosen (most are not; a map's lookup
// cost more than the rest of the summary), and the pass ends once every place wanted is found: it
// runs before V8 has optimised it in a process's first catalog, at some 10 ns a step.
function examplesOf(
  hidden: Int32Array,
  groups: SkillGroups,
  labelOf: Int32Array,
  labels: number,
  chosen: ReadonlyArray<{ index: number; count: number }>,
): Map<number, string[]> {
  const slotOf = new Int32Array(labels).fill(-1);
  const wanted = new Int32Array(chosen.length * EXAMPLES).fill(-1);
  let missing = 0;
  chosen.forEach(({ index, count }, slot) => {
    slotOf[index] = slot;
    // Distinct places: a group of one or two has fewer.
    for (let third = 0, last = -1; third < Math.min(EXAMPLES, count); third++) {
      const place = Math.floor((third * count) / EXAMPLES);
      if (place === last) continue;
      wanted[slot * EXAMPLES + third] = last = place;
      missing++;
    }
  });
  const found = chosen.map((): string[] => []);
  const seen = new Int32Array(chosen.length);
  for (let rank = 0; rank < hidden.length && missing > 0; rank++) {
    const at = hidden[rank]!;
    const slot = slotOf[labelOf[groups.of[at]!]!]!;
    if (slot < 0) continue;
    const place = seen[slot]!++;
    for (let each = slot * EXAMPLES; each < (slot + 1) * EXAMPLES; each++) {
      if (wanted[each] !== place) continue;
      found[slot]!.push(groups.names[at]!);
      missing--;
      break;
    }
  }
  return new Map(chosen.map(({ index }, slot) => [index, found[slot]!]));
}
