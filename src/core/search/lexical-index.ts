import { createQueryScorer, type Posting } from "./bm25-query-scorer.js";
import type { RankedSkill } from "./ranked-skill.js";
import { searchTerms } from "./search-terms.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

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

// The name counts twice, as a heading would.
const NAME_WEIGHT = 2;

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
  const lengths: number[] = [];
  const scorer = createQueryScorer();

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
    lengths[id] = length;
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
      return scorer
        .score({ postings, docLengths: lengths, live, averageLength: totalLength / live, vocabulary }, query, limit)
        .map(({ id, score, coverage }) => ({ name: docs[id]!.name, score, coverage }));
    },
  };
}
