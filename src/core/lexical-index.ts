import { expandQueryWord } from "./query-term-expansion.js";
import { queryWords, type QueryWord } from "./query-words.js";
import type { RankedSkill } from "./ranked-skill.js";
import { searchTerms } from "./search-terms.js";
import type { SkillMetadata } from "./skill-metadata.js";

/**
 * An inverted index over skill names and descriptions, scored with BM25 at query time. Written
 * for this job rather than taken from a search library because a library (MiniSearch, measured)
 * takes 15–35 ms a query at 10,000 skills, where common words match thousands of skills; this
 * one adds a query's postings into one reused array and keeps the best few, well under 1 ms.
 */
export interface LexicalIndex {
  /** Makes the index hold exactly `skills`: only added, removed or changed skills are (re)indexed. */
  follow(skills: readonly SkillMetadata[]): void;
  search(query: string, limit: number): IndexHit[];
}

/** A skill the index found: its BM25 score and the share of the query it covers. */
export interface IndexHit extends RankedSkill {
  /**
   * The share, 0 to 1, of the query's informative words (each weighted by its idf; request
   * verbs count for nothing) that the skill matches, a word matched by prefix or typo counting
   * at that weight.
   */
  coverage: number;
}

// BM25's usual constants; the name counts twice, as a heading would.
const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 2;

interface Posting {
  docs: number[];
  /** Weighted term frequency in each doc: name occurrences count twice. */
  frequencies: number[];
}

interface Doc {
  name: string;
  description: string;
  length: number;
  terms: string[];
}

/** Creates an empty {@link LexicalIndex}. */
export function createLexicalIndex(): LexicalIndex {
  const postings = new Map<string, Posting>();
  const docs: Array<Doc | undefined> = [];
  const byName = new Map<string, number>();
  const free: number[] = [];
  let live = 0;
  let totalLength = 0;
  let sortedTerms: string[] | undefined;
  const vocabulary = () => (sortedTerms ??= [...postings.keys()].sort());
  // Per doc: the query's score so far, the current query word's (the best of its spellings) and
  // the current spelling's; reused across queries.
  let scores = new Float64Array(0);
  let wordScores = new Float64Array(0);
  let spellingScores = new Float64Array(0);
  // Per doc: the covered idf so far, and the current word's best match weight.
  let covered = new Float64Array(0);
  let wordMatches = new Float64Array(0);

  function add(skill: SkillMetadata): void {
    const frequencies = new Map<string, number>();
    const count = (words: readonly string[], weight: number) => {
      for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + weight);
    };
    const nameTerms = searchTerms(skill.name);
    const descriptionTerms = searchTerms(skill.description);
    count(nameTerms, NAME_WEIGHT);
    count(descriptionTerms, 1);
    const id = free.pop() ?? docs.length;
    const length = nameTerms.length * NAME_WEIGHT + descriptionTerms.length;
    docs[id] = { name: skill.name, description: skill.description, length, terms: [...frequencies.keys()] };
    byName.set(skill.name, id);
    for (const [term, frequency] of frequencies) {
      let posting = postings.get(term);
      if (!posting) {
        posting = { docs: [], frequencies: [] };
        postings.set(term, posting);
        sortedTerms = undefined;
      }
      posting.docs.push(id);
      posting.frequencies.push(frequency);
    }
    live++;
    totalLength += length;
  }

  function remove(id: number): void {
    const doc = docs[id]!;
    for (const term of doc.terms) {
      const posting = postings.get(term)!;
      const at = posting.docs.indexOf(id);
      posting.docs.splice(at, 1);
      posting.frequencies.splice(at, 1);
      if (posting.docs.length === 0) {
        postings.delete(term);
        sortedTerms = undefined;
      }
    }
    docs[id] = undefined;
    byName.delete(doc.name);
    free.push(id);
    live--;
    totalLength -= doc.length;
  }

  return {
    follow(skills) {
      const wanted = new Map(skills.map((skill) => [skill.name, skill]));
      for (const [name, id] of byName) {
        const skill = wanted.get(name);
        if (!skill || skill.description !== docs[id]!.description) remove(id);
      }
      for (const skill of skills) if (!byName.has(skill.name)) add(skill);
    },

    search(query, limit) {
      if (live === 0 || limit <= 0) return [];
      if (scores.length < docs.length) {
        scores = new Float64Array(docs.length * 2);
        wordScores = new Float64Array(docs.length * 2);
        spellingScores = new Float64Array(docs.length * 2);
        covered = new Float64Array(docs.length * 2);
        wordMatches = new Float64Array(docs.length * 2);
      }
      const averageLength = totalLength / live;
      const idf = (documents: number) => Math.log(1 + (live - documents + 0.5) / (documents + 0.5));
      const touched: number[] = [];
      let informativeTotal = 0;
      for (const word of queryWords(query)) {
        // A word no skill uses is as rare as can be: missing it leaves much of the query uncovered.
        const informative = word.weight < 1 ? 0 : Math.max(...word.spellings.map(([term]) => idf(postings.get(term)?.docs.length ?? 0)));
        informativeTotal += informative;
        for (const id of scoreWord(word, averageLength)) {
          if (scores[id] === 0) touched.push(id);
          scores[id]! += word.weight * wordScores[id]!;
          covered[id]! += informative * Math.min(1, wordMatches[id]!);
          wordScores[id] = wordMatches[id] = 0;
        }
      }
      const best = topScores(touched, scores, limit);
      const hits = best.map(({ id, score }) => ({ name: docs[id]!.name, score, coverage: informativeTotal === 0 ? 0 : covered[id]! / informativeTotal }));
      for (const id of touched) scores[id] = covered[id] = 0;
      return hits;
    },
  };

  // One query word's BM25 score in every doc it reaches, into wordScores: each spelling (the
  // word, its aliases) sums its exact, prefix and typo matches, and a doc keeps its best spelling,
  // so a skill that says "pptx" and "presentation" does not count the same word twice.
  function scoreWord(word: QueryWord, averageLength: number): number[] {
    const touched: number[] = [];
    // A word without aliases (most of them) sums straight into wordScores.
    const alone = word.spellings.length === 1;
    const sums = alone ? wordScores : spellingScores;
    for (const [spelling, spellingWeight] of word.spellings) {
      const reached = alone ? touched : [];
      for (const [term, weight] of expandQueryWord(spelling, postings, vocabulary)) {
        const posting = postings.get(term)!;
        const idf = Math.log(1 + (live - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
        for (let at = 0; at < posting.docs.length; at++) {
          const id = posting.docs[at]!;
          const frequency = posting.frequencies[at]!;
          const score = (weight * idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * docs[id]!.length) / averageLength));
          if (sums[id] === 0) reached.push(id);
          sums[id]! += score;
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
