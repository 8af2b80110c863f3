import { createQueryScorer, type Posting, type ScoredPostings } from "./bm25-query-scorer.js";
import type { RankedSkill } from "./ranked-skill.js";
import { searchTerm } from "./search-terms.js";
import { createWordTable } from "./word-table.js";
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

/**
 * Creates an empty {@link LexicalIndex}. Postings are typed arrays in doc-id order (ids are handed
 * out in order and not reused, so a doc is appended; removed docs leave gaps, closed by indexing
 * afresh once they outnumber the live ones). The words of a text are looked up in a map from each
 * word as written to its posting, so stemming and the term's lookup happen once per distinct word
 * rather than once per occurrence, and no per-doc map or term list is kept: a doc's terms are read
 * again from its text when it is removed or returned.
 */
export function createLexicalIndex(): LexicalIndex {
  const postings = new Map<string, Posting>();
  let names: Array<string | undefined> = [];
  let descriptions: string[] = [];
  let byName: Map<string, number> | undefined;
  let sortedTerms: string[] | undefined;
  const view: ScoredPostings = {
    postings,
    size: 0,
    docLengths: new Int32Array(1024),
    live: 0,
    averageLength: 0,
    generation: 0,
    vocabulary: () => (sortedTerms ??= [...postings.keys()].sort()),
    termsOf: (id) => {
      const terms = new Set<string>();
      for (const posting of docPostings(id)) terms.add(posting.term);
      return terms;
    },
  };
  let totalLength = 0;
  const scorer = createQueryScorer();

  // A word's posting, made when the word is first met; none for a stop word.
  function resolve(word: string): Posting | undefined {
    const term = searchTerm(word);
    if (term === null) return undefined;
    let posting = postings.get(term);
    if (!posting) {
      posting = { term, docs: new Int32Array(4), frequencies: new Int32Array(4), size: 0, live: true };
      postings.set(term, posting);
      sortedTerms = undefined;
    }
    return posting;
  }
  const words = createWordTable(resolve, (posting) => !posting.live);
  // The postings of one text's words, in order: reused from text to text.
  const found: Posting[] = [];

  // Adds the words of `text` to doc `id`'s postings at `weight`; returns how many it indexed.
  function addWords(text: string, id: number, weight: number): number {
    const count = words.valuesOf(text, found);
    for (let at = 0; at < count; at++) {
      const posting = found[at]!;
      const last = posting.size - 1;
      if (last >= 0 && posting.docs[last] === id) {
        posting.frequencies[last]! += weight;
        continue;
      }
      if (posting.size === posting.docs.length) {
        posting.docs = grown(posting.docs, posting.size * 2);
        posting.frequencies = grown(posting.frequencies, posting.size * 2);
      }
      posting.docs[posting.size] = id;
      posting.frequencies[posting.size++] = weight;
    }
    return count;
  }

  function add(skill: SkillMetadata): void {
    const id = view.size++;
    if (id === view.docLengths.length) view.docLengths = grown(view.docLengths, id * 2);
    names[id] = skill.name;
    descriptions[id] = skill.description;
    byName?.set(skill.name, id);
    const length = addWords(skill.name, id, NAME_WEIGHT) * NAME_WEIGHT + addWords(skill.description, id, 1);
    view.docLengths[id] = length;
    view.live++;
    totalLength += length;
  }

  // The postings that hold doc `id`, read again from its text.
  function docPostings(id: number): Set<Posting> {
    const held = new Set<Posting>();
    for (const text of [names[id]!, descriptions[id]!]) {
      const count = words.valuesOf(text, found);
      for (let at = 0; at < count; at++) held.add(found[at]!);
    }
    return held;
  }

  // Removes docs, each posting they touch rewritten once.
  function remove(ids: readonly number[]): void {
    const gone = new Set(ids);
    const touched = new Set<Posting>();
    for (const id of ids) for (const posting of docPostings(id)) touched.add(posting);
    for (const posting of touched) {
      let kept = 0;
      for (let at = 0; at < posting.size; at++) {
        if (gone.has(posting.docs[at]!)) continue;
        posting.docs[kept] = posting.docs[at]!;
        posting.frequencies[kept++] = posting.frequencies[at]!;
      }
      posting.size = kept;
      if (kept > 0) continue;
      postings.delete(posting.term);
      posting.live = false;
      sortedTerms = undefined;
    }
    for (const id of ids) {
      byName!.delete(names[id]!);
      names[id] = undefined;
      totalLength -= view.docLengths[id]!;
      view.live--;
    }
  }

  function clear(): void {
    postings.clear();
    words.clear();
    names = [];
    descriptions = [];
    byName = undefined;
    sortedTerms = undefined;
    view.size = view.live = totalLength = 0;
  }

  // Adds the skills not indexed yet; of two with one name, the first. No map of names while names
  // come in order (a catalog's always do), so a first build makes none.
  function addAll(skills: readonly SkillMetadata[]): void {
    let last = view.size > 0 ? undefined : "";
    for (const skill of skills) {
      if (byName === undefined && (last === undefined || !(skill.name > last)))
        byName = new Map(names.flatMap((name, id) => (name === undefined ? [] : [[name, id]])));
      if (byName?.has(skill.name)) continue;
      add(skill);
      last = skill.name;
    }
  }

  return {
    follow(skills) {
      if (view.size > 0) {
        byName ??= new Map(names.flatMap((name, id) => (name === undefined ? [] : [[name, id]])));
        const wanted = new Map(skills.map((skill) => [skill.name, skill]));
        const removed: number[] = [];
        for (const [name, id] of byName) {
          const skill = wanted.get(name);
          if (!skill || skill.description !== descriptions[id]) removed.push(id);
        }
        if (removed.length > 0) remove(removed);
        // Removed docs leave gaps in the per-doc arrays: index afresh once they outnumber the live ones.
        if (view.size > 1024 && view.size > 2 * view.live) clear();
        // Words of removed skills stay in the table: bounded, so a library that keeps changing cannot grow it.
        else if (words.size > 4 * postings.size + 10_000) words.clear();
      }
      addAll(skills);
      view.averageLength = view.live === 0 ? 0 : totalLength / view.live;
      view.generation++;
    },

    search(query, limit) {
      if (view.live === 0 || limit <= 0) return [];
      return scorer.score(view, query, limit).map(({ id, score, coverage }) => ({ name: names[id]!, score, coverage }));
    },
  };
}

function grown(array: Int32Array, length: number): Int32Array {
  const larger = new Int32Array(Math.max(length, 4));
  larger.set(array);
  return larger;
}
