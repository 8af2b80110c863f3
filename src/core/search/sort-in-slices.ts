/**
 * `strings` sorted as `Array.prototype.sort()` sorts them (by UTF-16 code units), in slices: put
 * in buckets by their first two code units, each bucket sorted on its own, pausing between
 * buckets whenever `due()` says so. One sort of the 100,000 terms of a large library held the
 * event loop for tens of ms; the buckets also spare the sort most of its comparisons.
 */
export async function sortInSlices(
  strings: readonly string[],
  due: () => boolean,
  pause: () => Promise<void>,
): Promise<string[]> {
  const buckets = new Map<number, string[]>();
  for (const string of strings) {
    // A string of one code unit comes before every longer one that starts with it.
    const key =
      string.length === 0 ? -1 : string.charCodeAt(0) * 65_537 + (string.length > 1 ? string.charCodeAt(1) + 1 : 0);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(string);
    else buckets.set(key, [string]);
  }
  const sorted: string[] = [];
  for (const key of [...buckets.keys()].sort((a, b) => a - b)) {
    if (due()) await pause();
    for (const string of buckets.get(key)!.sort()) sorted.push(string);
  }
  return sorted;
}
