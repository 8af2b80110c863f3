// Scores one query against the lexical index's postings with BM25: each query word at its
// weight, the best of its spellings (aliases), and the share of the query each skill covers.
// Apart from the index, which keeps the postings, so that each reads on its own.
import { expandQueryWord } from "./query-term-expansion.js";
import { queryWords, type QueryWord } from "./query-words.js";

// BM25's usual constants.
const K1 = 1.2;
const B = 0.75;

/** The docs that hold a term, and the term's weighted frequency in each. */
export interface Posting {
  docs: number[];
  /** Weighted term frequency in each doc: name occurrences count twice. */
  frequencies: number[];
}

/** What a query is scored against: the index's postings and doc lengths, read, never changed. */
export interface ScoredPostings {
  postings: ReadonlyMap<string, Posting>;
  /** Length of each doc by id (ids of removed docs may hold anything). */
  docLengths: readonly number[];
  /** How many docs the index holds. */
  live: number;
  averageLength: number;
  /** The indexed terms, sorted (for prefix matches). */
  vocabulary(): readonly string[];
}

/** One doc's score for a query: BM25, and the share of the query's informative words it matches. */
export interface ScoredDoc {
  id: number;
  score: number;
  coverage: number;
}

/** A scorer that reuses its per-doc arrays from query to query (one per index). */
export function createQueryScorer(): { score(index: ScoredPostings, query: string, limit: number): ScoredDoc[] } {
  // Per doc: the query's score so far, the current query word's (the best of its spellings), the
  // current spelling's, the covered idf so far and the current word's best match weight.
  let scores = new Float64Array(0);
  let wordScores = new Float64Array(0);
  let spellingScores = new Float64Array(0);
  let covered = new Float64Array(0);
  let wordMatches = new Float64Array(0);

  // One query word's BM25 score in every doc it reaches, into wordScores: each spelling (the
  // word, its aliases) sums its exact, prefix and typo matches, and a doc keeps its best spelling,
  // so a skill that says "pptx" and "presentation" does not count the same word twice.
  function scoreWord(index: ScoredPostings, word: QueryWord): number[] {
    const { postings, docLengths, live, averageLength } = index;
    const touched: number[] = [];
    // A word without aliases (most of them) sums straight into wordScores.
    const alone = word.spellings.length === 1;
    const sums = alone ? wordScores : spellingScores;
    for (const [spelling, spellingWeight] of word.spellings) {
      const reached = alone ? touched : [];
      for (const [term, weight] of expandQueryWord(spelling, postings, index.vocabulary)) {
        const posting = postings.get(term)!;
        const idf = Math.log(1 + (live - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
        for (let at = 0; at < posting.docs.length; at++) {
          const id = posting.docs[at]!;
          const frequency = posting.frequencies[at]!;
          if (sums[id] === 0) reached.push(id);
          sums[id]! +=
            (weight * idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * docLengths[id]!) / averageLength));
          if (wordMatches[id]! < spellingWeight * weight) wordMatches[id] = spellingWeight * weight;
        }
      }
      if (alone) break;
      for (const id of reached) {
        if (wordScores[id] === 0) touched.push(id);
        wordScores[id] = Math.max(wordScores[id]!, spellingWeight * spellingScores[id]!);
        spellingScores[id] = 0;
      }
    }
    return touched;
  }

  return {
    score(index, query, limit) {
      const size = index.docLengths.length;
      if (scores.length < size) {
        scores = new Float64Array(size * 2);
        wordScores = new Float64Array(size * 2);
        spellingScores = new Float64Array(size * 2);
        covered = new Float64Array(size * 2);
        wordMatches = new Float64Array(size * 2);
      }
      const idf = (documents: number) => Math.log(1 + (index.live - documents + 0.5) / (documents + 0.5));
      const touched: number[] = [];
      let informativeTotal = 0;
      for (const word of queryWords(query)) {
        // A word no skill uses is as rare as can be: missing it leaves much of the query uncovered.
        const informative =
          word.weight < 1
            ? 0
            : Math.max(...word.spellings.map(([term]) => idf(index.postings.get(term)?.docs.length ?? 0)));
        informativeTotal += informative;
        for (const id of scoreWord(index, word)) {
          if (scores[id] === 0) touched.push(id);
          scores[id]! += word.weight * wordScores[id]!;
          covered[id]! += informative * Math.min(1, wordMatches[id]!);
          wordScores[id] = wordMatches[id] = 0;
        }
      }
      const best = topScores(touched, scores, limit).map(({ id, score }) => ({
        id,
        score,
        coverage: informativeTotal === 0 ? 0 : covered[id]! / informativeTotal,
      }));
      for (const id of touched) scores[id] = covered[id] = 0;
      return best;
    },
  };
}

// The `limit` highest scores, best first; ties go to the earlier id.
function topScores(ids: readonly number[], scores: Float64Array, limit: number): Array<{ id: number; score: number }> {
  const best: Array<{ id: number; score: number }> = [];
  for (const id of ids) {
    const score = scores[id]!;
    if (best.length === limit && score <= best[limit - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1]!.score < score || (best[at - 1]!.score === score && best[at - 1]!.id > id))) at--;
    best.splice(at, 0, { id, score });
    if (best.length > limit) best.pop();
  }
  return best;
}
