// Options passed from JavaScript are not checked by TypeScript: a misspelt key
// (`maxLoaded` for `maxLoadedSkills`) would be ignored and its default used without a word.
// Every public factory that takes an options object refuses keys it does not know, naming them
// and the keys it knows. Below every layer, beside SkillsetError, so that executors, sources and
// hosts all refuse the same way.
import { SkillsetError } from "./skillset-error.js";

/**
 * The keys a factory's options object may have, one entry per key of `T` (so an option added to
 * the type without being listed fails typecheck): `true`, or for a key whose value is a plain
 * object of options, the keys of that object.
 */
export type KnownOptions<T> = { readonly [K in keyof Required<T>]: true | OptionKeys };

/** Known option keys, with the keys of nested plain-object options. */
export interface OptionKeys {
  readonly [key: string]: true | OptionKeys;
}

/**
 * Throws a SkillsetError `unknown-option` when `options` (a plain object; anything else is left to
 * the factory's own checks) has a key that `known` does not list, at the top or in a nested plain
 * object `known` describes. The message names the factory, each unknown key (the closest known
 * one when one is near) and the known keys.
 */
export function refuseUnknownOptions(factory: string, options: unknown, known: OptionKeys, path = ""): void {
  if (!isPlainObject(options)) return;
  const unknown = Object.keys(options).filter((key) => !Object.hasOwn(known, key));
  if (unknown.length > 0) {
    const names = Object.keys(known);
    const listed = unknown.map((key) => {
      const near = closestKey(key, names);
      return `'${path}${key}'${near === undefined ? "" : ` (did you mean '${path}${near}'?)`}`;
    });
    const where = path === "" ? "Known options" : `Known options of ${path.slice(0, -1)}`;
    throw new SkillsetError(
      "unknown-option",
      `${factory}: unknown option${unknown.length === 1 ? "" : "s"} ${listed.join(", ")}. ${where}: ${names.join(", ")}.`,
    );
  }
  for (const [key, nested] of Object.entries(known)) {
    if (nested !== true) refuseUnknownOptions(factory, options[key], nested, `${path}${key}.`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// The known key a misspelling most likely meant: the same but for case, one that contains the
// other (`maxLoaded`, `maxLoadedSkills`), or a few edits away; undefined when none is near.
function closestKey(key: string, names: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const other = name.toLowerCase();
    const distance =
      other === lower
        ? 0
        : Math.min(lower.length, other.length) >= 4 && (other.includes(lower) || lower.includes(other))
          ? 1
          : editDistance(lower, other);
    if (distance < bestDistance && distance <= Math.max(2, Math.ceil(Math.min(key.length, name.length) / 3))) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

// Levenshtein distance with swaps of neighbours counting one edit.
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
