// Scores one query against the lexical index's postings with BM25: each query word at its
// weight, the best of its spellings (aliases), and the share of the query each skill covers.
// Apart from the index, which keeps the postings, so that each reads on its own.
import { expandQueryWord, type Vocabulary } from "./query-term-expansion.js";
import { queryWords } from "./query-words.js";

// BM25's usual constants.
const K1 = 1.2;
const B = 0.75;
const K1_PLUS_1 = K1 + 1;

/**
 * The docs that hold a term, in ascending id order, and the term's weighted frequency in each.
 * Both sit at `start` to `start + size` of their arrays, which a small posting shares with others.
 */
export interface Posting {
  readonly term: string;
  /** Doc ids, from `start`. */
  docs: Int32Array;
  /** Weighted term frequency in each doc (name occurrences count twice), from `start`. */
  frequencies: Int32Array;
  start: number;
  size: number;
  /** Where the posting's room in its arrays ends. */
  end: number;
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
 * and how much of the query a doc covers is worked out only for the docs returned. Skipping the docs
 * whose words cannot lift them into the best few (MaxScore) was measured against this on 100,000
 * generated skills and lost, 1.1 against 0.6 ms a query: every word there is common and the bounds
 * loose, so it still walked a quarter of the library, at a higher cost per doc.
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

  // The docs whose score left 0 during the current query, when it reaches few (reused).
  const touched: number[] = [];

  return {
    score(index, query, limit) {
      if (limit <= 0) return [];
      prepare(index);
      const words = expandQuery(index, query);
      let reach = 0;
      for (const word of words)
        for (const spelling of word.spellings) for (const term of spelling.terms) reach += term.posting.size;
      // Reaching a good share of the docs: one pass over every score beats a list of the docs reached.
      const sparse = reach * 8 < index.size;
      touched.length = 0;
      for (const word of words) scoreWord(word, sparse ? touched : undefined);
      const best = sparse ? bestOfListed(scores, limit, touched) : bestOfAll(scores, limit, index.size);
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
    const { docs, frequencies, start, size } = term.posting;
    const { idfWeight } = term;
    for (let at = start; at < start + size; at++) {
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
  const { docs, start, size } = posting;
  for (let at = start; at < start + size; at++) {
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
  const { docs, start, size } = posting;
  for (let at = start; at < start + size; at++) {
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

// The `limit` highest scores of every doc below `count`, best first, ties to the earlier id; then
// every score is set back to 0 for the next query. One comparison per doc: it is most of them.
function bestOfAll(scores: Float64Array, limit: number, count: number): ScoredId[] {
  const best = createBest(limit, count);
  let floor = 0;
  for (let id = 0; id < count; id++) {
    const score = scores[id]!;
    if (score > floor) floor = best.offer(id, score);
  }
  scores.fill(0, 0, count);
  return best.taken();
}

// The `limit` highest scores of the docs `ids` lists, best first, each score set back to 0. In the
// list's order: a doc tied with the last of the best does not displace it.
function bestOfListed(scores: Float64Array, limit: number, ids: readonly number[]): ScoredId[] {
  const best = createBest(limit, ids.length);
  let floor = 0;
  for (const id of ids) {
    const score = scores[id]!;
    scores[id] = 0;
    if (score > floor) floor = best.offer(id, score);
  }
  return best.taken();
}

// The best few, in typed arrays: offer() keeps a doc that beats the last of them (ties between
// those kept go to the lower id) and returns the score a doc must now beat.
function createBest(limit: number, count: number): { offer(id: number, score: number): number; taken(): ScoredId[] } {
  const room = Math.min(limit, count);
  const ids = new Int32Array(room);
  const scores = new Float64Array(room);
  let kept = 0;
  return {
    offer(id, score) {
      let place = kept < room ? kept++ : room - 1;
      for (; place > 0; place--) {
        const above = scores[place - 1]!;
        if (above > score || (above === score && ids[place - 1]! < id)) break;
        scores[place] = above;
        ids[place] = ids[place - 1]!;
      }
      scores[place] = score;
      ids[place] = id;
      return kept === room ? scores[room - 1]! : 0;
    },
    taken: () => Array.from({ length: kept }, (_, at) => ({ id: ids[at]!, score: scores[at]! })),
  };
}

interface ScoredId {
  id: number;
  score: number;
}
