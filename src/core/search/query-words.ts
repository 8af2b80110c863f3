// How a query becomes the words the lexical index looks up: each distinct word with the other
// spellings it may take (the aliases of query-aliases.ts) and how much it says about the task.
import { QUERY_ALIASES } from "./query-aliases.js";
import { searchTerms } from "./search-terms.js";

/** Weight of an alias next to the word the user typed (1): "powerpoint" finds "pptx" a little lower than "pptx" would. */
export const ALIAS_WEIGHT = 0.8;
/** Weight of a word that asks for work in general rather than naming it ("make", "write"). */
export const NOISE_WEIGHT = 0.5;

// Verbs and fillers that open requests: they match many skills by chance ("write" matches every
// writing skill) but rarely name the task. Weighted down in queries, not dropped, because in
// some requests they are all there is ("write a plan"). Only where they open the request: later
// in a request phrased as a goal they are part of it ("before we build anything", "a new routine"),
// and weighing them down there cost such requests recall (bench/search-eval/goal-phrased.json).
const NOISE = new Set(
  searchTerms(
    "make write create build get need just some something thing stuff new good nice quick quickly really also like let can't don't",
  ),
);

/** One word of a query: its spellings with their weights, and how much it counts. */
export interface QueryWord {
  /** The word as typed (weight 1) and its aliases; a skill scores the best of them. */
  spellings: ReadonlyArray<readonly [string, number]>;
  /** 1, or {@link NOISE_WEIGHT} for a request verb or filler that opens the request. */
  weight: number;
}

interface Alias {
  terms: readonly string[];
  group: readonly string[];
}

const aliases: Alias[] = QUERY_ALIASES.flatMap((group) => {
  const analysed = group.map((entry) => searchTerms(entry));
  const singles = analysed.filter((terms) => terms.length === 1).map((terms) => terms[0]!);
  return analysed.map((terms) => ({
    terms,
    group: singles.filter((single) => terms.length > 1 || single !== terms[0]),
  }));
});
const bySingle = new Map(
  aliases.filter((alias) => alias.terms.length === 1).map((alias) => [alias.terms[0]!, alias.group]),
);
const phrases = aliases.filter((alias) => alias.terms.length > 1);

/** The distinct words of `query`, in order, each with its aliases and weight; a phrase alias ("word document") adds a word of its own. */
export function queryWords(query: string): QueryWord[] {
  const terms = searchTerms(query);
  const words: QueryWord[] = [];
  let opening = true;
  for (const term of new Set(terms)) {
    const spellings: Array<readonly [string, number]> = [[term, 1]];
    for (const alias of bySingle.get(term) ?? []) spellings.push([alias, ALIAS_WEIGHT]);
    opening &&= NOISE.has(term);
    words.push({ spellings, weight: opening ? NOISE_WEIGHT : 1 });
  }
  for (const phrase of phrases) {
    if (containsRun(terms, phrase.terms))
      words.push({ spellings: phrase.group.map((alias) => [alias, ALIAS_WEIGHT] as const), weight: 1 });
  }
  return words;
}

function containsRun(terms: readonly string[], run: readonly string[]): boolean {
  for (let start = 0; start + run.length <= terms.length; start++) {
    if (run.every((term, offset) => terms[start + offset] === term)) return true;
  }
  return false;
}
