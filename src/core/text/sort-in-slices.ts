import { codePointRank, compareCodePoints } from "./python-text.js";

/**
 * `strings` sorted by UTF-16 code units, as `Array.prototype.sort()` sorts them, or with
 * `"code-points"` by code point (the catalog's order, Python's), in slices: put in buckets by
 * their first two code units, each bucket sorted on its own, pausing between buckets whenever
 * `due()` says so. One sort of the 100,000 terms of a large library held the event loop for tens
 * of ms; the buckets also spare the sort most of its comparisons.
 */
export async function sortInSlices(
  strings: readonly string[],
  due: () => boolean,
  pause: () => Promise<void>,
  order: "code-units" | "code-points" = "code-units",
): Promise<string[]> {
  const rank = order === "code-points" ? codePointRank : (unit: number) => unit;
  const buckets = new Map<number, string[]>();
  for (const string of strings) {
    // A string of one code unit comes before every longer one that starts with it.
    const key =
      string.length === 0
        ? -1
        : rank(string.charCodeAt(0)) * 65_537 + (string.length > 1 ? rank(string.charCodeAt(1)) + 1 : 0);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(string);
    else buckets.set(key, [string]);
  }
  const sorted: string[] = [];
  for (const key of [...buckets.keys()].sort((a, b) => a - b)) {
    if (due()) await pause();
    const bucket = buckets.get(key)!;
    for (const string of order === "code-points" ? bucket.sort(compareCodePoints) : bucket.sort()) sorted.push(string);
  }
  return sorted;
}
