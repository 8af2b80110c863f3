// Scores one query against the lexical index's postings with BM25: each query word at its
// weight, the best of its spellings (aliases), and the share of the query each skill covers.
// Apart from the index, which keeps the postings, so that each reads on its own.
import { expandQueryWord, type Vocabulary } from "./query-term-expansion.js";
import { queryWords } from "./query-words.js";

// BM25's usual constants.
const K1 = 1.2;
const B = 0.75;
const K1_PLUS_1 = K1 + 1;

/** The docs that hold a term, in ascending id order, and the term's weighted frequency in each. */
export interface Posting {
  readonly term: string;
  /** Doc ids; only the first `size` are in use. */
  docs: Int32Array;
  /** Weighted term frequency in each doc (name occurrences count twice); the first `size` are in use. */
  frequencies: Int32Array;
  size: number;
  /** False once the index dropped the term (no doc holds it any more). */
  live: boolean;
  /** Postings made later have higher ordinals: the order in which the index's map of terms holds them. */
  readonly ordinal: number;
}

/** What a query is scored against: the index's postings and doc lengths, read, never changed. */
export interface ScoredPostings {
  postings: ReadonlyMap<string, Posting>;
  /** Doc ids are below this. */
  size: number;
  /** Length of each doc by id (ids of removed docs may hold anything). */
  docLengths: Int32Array;
  /** How many docs the index holds. */
  live: number;
  averageLength: number;
  /** Changes whenever the docs do, so that what is derived from their lengths is computed again. */
  generation: number;
  /** The indexed terms, sorted (for prefix matches), and the characters they use (for typos). */
  vocabulary(): Vocabulary;
  /** The terms of one doc: read only for the few docs a query returns. */
  termsOf(id: number): ReadonlySet<string>;
}

/** One doc's score for a query: BM25, and the share of the query's informative words it matches. */
export interface ScoredDoc {
  id: number;
  score: number;
  coverage: number;
}

// A query word with what it reaches: per spelling, the postings and their weights.
interface ExpandedWord {
  weight: number;
  /** The word's idf, or 0 for a word that asks for work in general. */
  informative: number;
  spellings: Array<{ weight: number; terms: Array<{ posting: Posting; weight: number; idfWeight: number }> }>;
}

/**
 * A scorer that reuses its per-doc arrays from query to query (one per index). A word's postings
 * are added straight into per-doc arrays; when a query reaches a good share of the library, the
 * best docs are found by one pass over the scores rather than through a list of the docs reached,
 * and how much of the query a doc covers is worked out only for the docs returned.
 */
export function createQueryScorer(): { score(index: ScoredPostings, query: string, limit: number): ScoredDoc[] } {
  // Per doc: the query's score so far, the current word's (the best of its spellings), the current
  // spelling's, and BM25's length normalisation (from the docs' lengths, computed once per generation).
  let scores = new Float64Array(0);
  let wordScores = new Float64Array(0);
  let spellingScores = new Float64Array(0);
  let norms = new Float64Array(0);
  let normsOf = -1;

  function prepare(index: ScoredPostings): void {
    const { size } = index;
    if (scores.length < size) {
      scores = new Float64Array(size * 2);
      wordScores = new Float64Array(size * 2);
      spellingScores = new Float64Array(size * 2);
      norms = new Float64Array(size * 2);
      normsOf = -1;
    }
    if (normsOf === index.generation) return;
    const { docLengths, averageLength } = index;
    for (let id = 0; id < size; id++) norms[id] = K1 * (1 - B + (B * docLengths[id]!) / averageLength);
    normsOf = index.generation;
  }

  return {
    score(index, query, limit) {
      prepare(index);
      const words = expandQuery(index, query);
      let reach = 0;
      for (const word of words)
        for (const spelling of word.spellings) for (const term of spelling.terms) reach += term.posting.size;
      // Reaching a good share of the docs: one pass over every score beats a list of the docs reached.
      const touched = reach * 8 < index.size ? [] : undefined;
      for (const word of words) scoreWord(word, touched);
      const best = touched ? topScores(touched, scores, limit) : topScores(undefined, scores, limit, index.size);
      if (touched) for (const id of touched) scores[id] = 0;
      else scores.fill(0, 0, index.size);
      return best.map(({ id, score }) => ({ id, score, coverage: coverage(words, index.termsOf(id)) }));
    },
  };

  // Adds one query word's BM25 score, the best of its spellings, into `scores`; each spelling sums
  // its exact, prefix and typo matches, so a skill that says "pptx" and "presentation" does not
  // count the same word twice. `touched` collects the docs whose score was 0 before.
  function scoreWord(word: ExpandedWord, touched: number[] | undefined): void {
    const [first] = word.spellings;
    if (word.spellings.length === 1 && first!.terms.length === 1) {
      // Most words: one spelling that reaches one term sums straight into the scores.
      addPosting(first!.terms[0]!, scores, word.weight, touched);
      return;
    }
    const alone = word.spellings.length === 1;
    for (const spelling of word.spellings) {
      const sums = alone ? wordScores : spellingScores;
      for (const term of spelling.terms) addPosting(term, sums, 1, undefined);
      if (alone) break;
      for (const { posting } of spelling.terms) keepBest(posting, spelling.weight, spellingScores, wordScores);
    }
    for (const spelling of word.spellings)
      for (const { posting } of spelling.terms) fold(posting, word.weight, touched, wordScores, scores);
  }

  // sums[doc] += weight * (the term's BM25 score in doc), for every doc of the posting.
  function addPosting(
    term: ExpandedWord["spellings"][number]["terms"][number],
    sums: Float64Array,
    weight: number,
    touched: number[] | undefined,
  ): void {
    const { docs, frequencies, size } = term.posting;
    const { idfWeight } = term;
    for (let at = 0; at < size; at++) {
      const id = docs[at]!;
      const frequency = frequencies[at]!;
      if (touched && sums[id] === 0) touched.push(id);
      sums[id]! += weight * ((idfWeight * frequency * K1_PLUS_1) / (frequency + norms[id]!));
    }
  }
}

// Keeps, per doc the spelling reached, the better of the word's score so far and this spelling's.
function keepBest(
  posting: Posting,
  spellingWeight: number,
  spellingScores: Float64Array,
  wordScores: Float64Array,
): void {
  const { docs, size } = posting;
  for (let at = 0; at < size; at++) {
    const id = docs[at]!;
    const value = spellingScores[id]!;
    if (value === 0) continue;
    wordScores[id] = Math.max(wordScores[id]!, spellingWeight * value);
    spellingScores[id] = 0;
  }
}

function fold(
  posting: Posting,
  weight: number,
  touched: number[] | undefined,
  wordScores: Float64Array,
  scores: Float64Array,
): void {
  const { docs, size } = posting;
  for (let at = 0; at < size; at++) {
    const id = docs[at]!;
    const value = wordScores[id]!;
    if (value === 0) continue;
    if (touched && scores[id] === 0) touched.push(id);
    scores[id]! += weight * value;
    wordScores[id] = 0;
  }
}

// The query's words with the postings each reaches and the weights they are scored at.
function expandQuery(index: ScoredPostings, query: string): ExpandedWord[] {
  const { postings, live } = index;
  const idf = (documents: number) => Math.log(1 + (live - documents + 0.5) / (documents + 0.5));
  return queryWords(query).map((word) => ({
    weight: word.weight,
    // A word no skill uses is as rare as can be: missing it leaves much of the query uncovered.
    informative: word.weight < 1 ? 0 : Math.max(...word.spellings.map(([term]) => idf(postings.get(term)?.size ?? 0))),
    spellings: word.spellings.map(([spelling, weight]) => ({
      weight,
      terms: expandQueryWord(spelling, postings, index.vocabulary).map(([term, termWeight]) => {
        const posting = postings.get(term)!;
        return { posting, weight: termWeight, idfWeight: termWeight * idf(posting.size) };
      }),
    })),
  }));
}

// The share of the query's informative words a doc matches, each word at its best match weight.
function coverage(words: readonly ExpandedWord[], terms: ReadonlySet<string>): number {
  let total = 0;
  let covered = 0;
  for (const word of words) {
    total += word.informative;
    let match = 0;
    let reached = false;
    for (const spelling of word.spellings)
      for (const term of spelling.terms) {
        if (!terms.has(term.posting.term)) continue;
        reached = true;
        if (match < spelling.weight * term.weight) match = spelling.weight * term.weight;
      }
    if (reached) covered += word.informative * Math.min(1, match);
  }
  return total === 0 ? 0 : covered / total;
}

// The `limit` highest scores, best first; ties go to the earlier id. Over `ids`, or every id below `size`.
function topScores(
  ids: readonly number[] | undefined,
  scores: Float64Array,
  limit: number,
  size = 0,
): Array<{ id: number; score: number }> {
  const best: Array<{ id: number; score: number }> = [];
  const count = ids ? ids.length : size;
  for (let at = 0; at < count; at++) {
    const id = ids ? ids[at]! : at;
    const score = scores[id]!;
    if (score === 0 || (best.length === limit && score <= best[limit - 1]!.score)) continue;
    let place = best.length;
    while (
      place > 0 &&
      (best[place - 1]!.score < score || (best[place - 1]!.score === score && best[place - 1]!.id > id))
    )
      place--;
    best.splice(place, 0, { id, score });
    if (best.length > limit) best.pop();
  }
  return best;
}
