import { printable } from "../text/safe-text.js";

/**
 * Groups of a catalog's skills, so that a catalog over its budget can say what kinds of skills it
 * leaves out and share its named lines fairly between collections. A skill's group is the folder
 * that holds its folder, written from where the catalog's folders part (`anthropics/skills/`,
 * `my-team/skills/`); when every skill sits in one folder, the first word of the name (`azure-*`).
 * `undefined` when neither tells skills apart.
 */
export function groupSkills<S extends { name: string; path: string }>(
  skills: readonly S[],
): Map<S, string> | undefined {
  // Most catalogs have one folder of skills: told apart in the same pass that reads the names'
  // prefixes, comparing each path's parent folder with the first one's in place.
  const first = skills[0] && parentOf(skills[0].path);
  const prefixes = first === undefined ? [] : namePrefixes(skills, first);
  if (prefixes) return byNamePrefix(skills, prefixes);
  const parents = skills.map((skill) => skill.path.replace(/\\/g, "/").split("/").slice(0, -2));
  // Segments every parent folder shares are dropped: they tell the groups nothing.
  let shared = 0;
  while (parents.every((parts) => shared < parts.length && parts[shared] === parents[0]![shared])) shared++;
  // A folder that is itself the shared part (skills beside the collections) goes by its own name.
  return new Map(
    skills.map((skill, index) => [
      skill,
      label(`${parents[index]!.length > shared ? parents[index]!.slice(shared).join("/") : parents[index]!.at(-1)}/`),
    ]),
  );
}

// The folder that holds a skill's folder (its path less two segments), with `/` separators.
function parentOf(path: string): string {
  const slashes = path.replace(/\\/g, "/");
  return slashes.slice(0, Math.max(0, slashes.lastIndexOf("/", slashes.lastIndexOf("/") - 1)));
}

// Whether parentOf(path) is `parent`, without copying the path when it has no backslash.
function sameParent(path: string, parent: string): boolean {
  if (path.includes("\\")) return parentOf(path) === parent;
  return Math.max(0, path.lastIndexOf("/", path.lastIndexOf("/") - 1)) === parent.length && path.startsWith(parent);
}

// Folder names may hold line breaks (a name is a file system's, not a skill's): escaped, so a
// label cannot start a line of its own in the prompt.
function label(text: string): string {
  return printable(text).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

// Each name's prefix (`azure-*`, undefined without a hyphen), or undefined as soon as a skill lies
// in another folder than `parent`. A prefix is cut out only when it differs from the name
// before's (sorted names that share one come together).
function namePrefixes<S extends { name: string; path: string }>(
  skills: readonly S[],
  parent: string,
): Array<string | undefined> | undefined {
  const prefixes: Array<string | undefined> = [];
  let last: string | undefined;
  let stem = "";
  for (const { name, path } of skills) {
    if (!sameParent(path, parent)) return undefined;
    const hyphen = name.indexOf("-");
    if (hyphen < 0) prefixes.push(undefined);
    else {
      if (last === undefined || hyphen !== stem.length - 1 || !name.startsWith(stem)) {
        stem = name.slice(0, hyphen + 1);
        last = `${stem}*`;
      }
      prefixes.push(last);
    }
  }
  return prefixes;
}

function byNamePrefix<S extends { name: string }>(
  skills: readonly S[],
  prefixes: ReadonlyArray<string | undefined>,
): Map<S, string> | undefined {
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
  return new Map(skills.map((skill, at) => [skill, (sizes.get(prefixes[at]) ?? 0) > 1 ? prefixes[at]! : "other"]));
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

/** The groups of `hidden` (in priority order), largest first, the largest with a few names; past 80, counted. */
export function summarizeHidden<S extends { name: string }>(
  hidden: readonly S[],
  groupOf: ReadonlyMap<S, string> | undefined,
): HiddenSummary {
  if (!groupOf) return { groups: [], rest: { groups: 0, count: 0 } };
  const members = new Map<string, string[]>();
  for (const skill of hidden) {
    const label = groupOf.get(skill) ?? "other";
    const names = members.get(label) ?? [];
    names.push(skill.name);
    members.set(label, names);
  }
  const sorted = [...members]
    .map(([label, names]) => ({ label, count: names.length, names }))
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1));
  // Examples spread over the group, not its first few, which would share a beginning.
  const spread = (names: string[]) =>
    Array.from(
      new Set(
        Array.from(
          { length: Math.min(EXAMPLES, names.length) },
          (_, index) => names[Math.floor((index * names.length) / EXAMPLES)]!,
        ),
      ),
    );
  const shown = sorted.slice(0, MAX_GROUPS).map(({ label, count, names }, index): HiddenGroup => ({
    label,
    count,
    examples: index < GROUPS_WITH_EXAMPLES ? spread(names) : [],
  }));
  return {
    groups: shown,
    rest: {
      groups: sorted.length - shown.length,
      count: sorted.slice(MAX_GROUPS).reduce((sum, group) => sum + group.count, 0),
    },
  };
}
