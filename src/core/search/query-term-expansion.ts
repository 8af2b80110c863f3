// Which indexed terms one query word reaches, and at what weight: the word itself, the terms it
// is a prefix of, and, for a word no skill uses, the terms one typo away. Kept apart from the
// index so that the matching rules can be read and tested without BM25 around them.

/** Weight of an indexed term that the query word is a prefix of (the word itself weighs 1). */
export const PREFIX_WEIGHT = 0.3;
/** Weight of an indexed term one edit away from a query word that no skill uses. */
export const TYPO_WEIGHT = 0.2;
// Bounds the work of a short, common prefix in a large library.
const MAX_PREFIX_TERMS = 64;

/** The indexed terms sorted (for prefixes) and the characters they are written with (for typos). */
export interface Vocabulary {
  readonly sorted: readonly string[];
  /** Each UTF-16 code unit that occurs in a term, once. */
  readonly alphabet: readonly string[];
}

/** The {@link Vocabulary} of `terms` (sorted in place); its alphabet is gathered when first read. */
export function vocabularyOf(terms: string[]): Vocabulary {
  return sortedVocabulary(terms.sort());
}

/** {@link vocabularyOf} terms already sorted (as `Array.prototype.sort()` sorts them). */
export function sortedVocabulary(sorted: readonly string[]): Vocabulary {
  let alphabet: string[] | undefined;
  return {
    sorted,
    get alphabet() {
      return (alphabet ??= charactersOf(sorted));
    },
  };
}

/**
 * The indexed terms `word` reaches, with their weights: `word` itself when indexed, otherwise
 * (words of 5 or more characters) every indexed term one edit away, in the order `indexed` holds
 * them; and for words of 4 or more characters, up to 64 further terms that start with it, in
 * sorted order. `ordinal` gives that order of `indexed` (lower first). `vocabulary` is called only
 * for words of 4 or more characters, so an index can build it lazily.
 */
export function expandQueryWord(
  word: string,
  indexed: ReadonlyMap<string, { readonly ordinal: number }>,
  vocabulary: () => Vocabulary,
): Array<[string, number]> {
  const matches: Array<[string, number]> = [];
  if (indexed.has(word)) matches.push([word, 1]);
  else for (const near of oneEditAway(word, indexed, vocabulary)) matches.push([near, TYPO_WEIGHT]);
  if (word.length >= 4) {
    const { sorted } = vocabulary();
    let at = lowerBound(sorted, word);
    for (let taken = 0; at < sorted.length && taken < MAX_PREFIX_TERMS && sorted[at]!.startsWith(word); at++) {
      if (sorted[at] === word) continue;
      matches.push([sorted[at]!, PREFIX_WEIGHT]);
      taken++;
    }
  }
  return matches;
}

// The indexed terms one edit away from `word`. In a large index, the word's own variants (each
// deletion, swap of neighbours, and substitution or insertion of a character the terms use) are
// looked up rather than every term compared: a query of 100,000 skills spent a millisecond here.
function oneEditAway(
  word: string,
  indexed: ReadonlyMap<string, { readonly ordinal: number }>,
  vocabulary: () => Vocabulary,
): string[] {
  if (word.length < 5) return [];
  const { alphabet } = vocabulary();
  if ((2 * word.length + 1) * (alphabet.length + 1) * VARIANT_COST >= indexed.size) {
    const found: string[] = [];
    for (const term of indexed.keys())
      if (Math.abs(term.length - word.length) <= 1 && withinOneEdit(word, term)) found.push(term);
    return found;
  }
  const found = new Set<string>();
  const add = (variant: string) => indexed.has(variant) && found.add(variant);
  for (let at = 0; at < word.length; at++) {
    add(word.slice(0, at) + word.slice(at + 1));
    if (at + 1 < word.length) add(word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2));
  }
  for (const char of alphabet)
    for (let at = 0; at <= word.length; at++) {
      if (at < word.length) add(word.slice(0, at) + char + word.slice(at + 1));
      add(word.slice(0, at) + char + word.slice(at));
    }
  // The same rule as the comparison decides, so that both ways find the same terms.
  return [...found]
    .filter((term) => withinOneEdit(word, term))
    .sort((a, b) => indexed.get(a)!.ordinal - indexed.get(b)!.ordinal);
}

// How many terms comparing one against the word costs about as much as looking up one variant.
const VARIANT_COST = 8;

function charactersOf(terms: readonly string[]): string[] {
  const seen = new Set<number>();
  for (const term of terms) for (let at = 0; at < term.length; at++) seen.add(term.charCodeAt(at));
  return [...seen].map((code) => String.fromCharCode(code));
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
