// Which indexed terms one query word reaches, and at what weight: the word itself, the terms it
// is a prefix of, and, for a word no skill uses, the terms one typo away. Kept apart from the
// index so that the matching rules can be read and tested without BM25 around them.

/** Weight of an indexed term that the query word is a prefix of (the word itself weighs 1). */
export const PREFIX_WEIGHT = 0.3;
/** Weight of an indexed term one edit away from a query word that no skill uses. */
export const TYPO_WEIGHT = 0.2;
// Bounds the work of a short, common prefix in a large library.
const MAX_PREFIX_TERMS = 64;

/**
 * The indexed terms `word` reaches, with their weights: `word` itself when indexed, otherwise
 * (words of 5 or more characters) every indexed term one edit away; and for words of 4 or more
 * characters, up to 64 further terms that start with it, in sorted order. `vocabulary` returns the
 * indexed terms sorted; it is called only when prefixes are looked up, so an index can build it lazily.
 */
export function expandQueryWord(
  word: string,
  indexed: ReadonlyMap<string, unknown>,
  vocabulary: () => readonly string[],
): Array<[string, number]> {
  const matches: Array<[string, number]> = [];
  if (indexed.has(word)) matches.push([word, 1]);
  else for (const near of oneEditAway(word, indexed)) matches.push([near, TYPO_WEIGHT]);
  if (word.length >= 4) {
    const sortedTerms = vocabulary();
    let at = lowerBound(sortedTerms, word);
    for (
      let taken = 0;
      at < sortedTerms.length && taken < MAX_PREFIX_TERMS && sortedTerms[at]!.startsWith(word);
      at++
    ) {
      if (sortedTerms[at] === word) continue;
      matches.push([sortedTerms[at]!, PREFIX_WEIGHT]);
      taken++;
    }
  }
  return matches;
}

function oneEditAway(word: string, indexed: ReadonlyMap<string, unknown>): string[] {
  if (word.length < 5) return [];
  const found: string[] = [];
  for (const term of indexed.keys())
    if (Math.abs(term.length - word.length) <= 1 && withinOneEdit(word, term)) found.push(term);
  return found;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether one substitution, insertion, deletion or swap of neighbours turns `a` into `b` (or they are equal). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const restA = a.slice(start + 1);
  const restB = b.slice(start + 1);
  if (a.length === b.length)
    return (
      restA === restB ||
      (a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2))
    );
  return a.length > b.length ? a.slice(start + 1) === b.slice(start) : a.slice(start) === restB;
}
