import { createQueryScorer, type Posting, type ScoredPostings } from "./bm25-query-scorer.js";
import type { RankedSkill } from "./ranked-skill.js";
import { sortedVocabulary, type Vocabulary, vocabularyOf } from "./query-term-expansion.js";
import { searchTerm } from "./search-terms.js";
import { sortInSlices } from "../text/sort-in-slices.js";
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
  /**
   * {@link follow}, pausing whenever `due()` says so, so that indexing a large library does not hold
   * the event loop. The index must not be searched or changed until the promise settles.
   */
  followInSlices(skills: readonly SkillMetadata[], due: () => boolean, pause: () => Promise<void>): Promise<void>;
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
  return new PostingsIndex();
}

// A class rather than closures: its parts are methods of their own.
class PostingsIndex implements LexicalIndex {
  private readonly postings = new Map<string, Posting>();
  private names: Array<string | undefined> = [];
  private descriptions: string[] = [];
  private byName: Map<string, number> | undefined;
  private sortedTerms: Vocabulary | undefined;
  // The ordinal of the next posting made: postings are ordered as the map of terms holds them.
  private ordinals = 0;
  // The name last added by this follow, "" before the first of a new index (undefined: look names up).
  private lastAdded: string | undefined;
  private totalLength = 0;
  private readonly scorer = createQueryScorer();
  private readonly view: ScoredPostings = {
    postings: this.postings,
    size: 0,
    docLengths: new Int32Array(1024),
    live: 0,
    averageLength: 0,
    generation: 0,
    vocabulary: () => (this.sortedTerms ??= vocabularyOf([...this.postings.keys()])),
    termsOf: (id) => new Set([...this.docPostings(id)].map((posting) => posting.term)),
  };
  private readonly words = createWordTable(
    (word) => this.resolve(word),
    (posting) => !posting.live,
  );
  private readonly shared = createSharedRoom();
  // The postings of one text's words, in order: reused from text to text.
  private readonly found: Posting[] = [];

  follow(skills: readonly SkillMetadata[]): void {
    this.begin(skills);
    this.addFrom(skills, 0, () => false);
    this.finish();
  }

  async followInSlices(
    skills: readonly SkillMetadata[],
    due: () => boolean,
    pause: () => Promise<void>,
  ): Promise<void> {
    this.begin(skills);
    // Growing the table of words, a rehash of all of them, took about 20 ms in one slice at
    // 100,000 skills: a new index makes room for a word a skill, as many as large libraries have.
    if (this.words.size === 0) this.words.reserve(skills.length);
    for (let at = this.addFrom(skills, 0, due); at < skills.length; at = this.addFrom(skills, at, due)) await pause();
    // The terms are sorted for prefix matches in slices too: at 100,000 skills one sort took 10–40
    // ms, which the first search added to the last slice's turn.
    await pause();
    this.sortedTerms ??= sortedVocabulary(await sortInSlices([...this.postings.keys()], due, pause));
    this.finish();
  }

  // Drops removed and changed skills; what is left to add comes next.
  private begin(skills: readonly SkillMetadata[]): void {
    const { view } = this;
    this.lastAdded = view.size > 0 ? undefined : "";
    if (view.size === 0) return;
    const byName = (this.byName ??= namesById(this.names));
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const removed: number[] = [];
    for (const [name, id] of byName) {
      const skill = wanted.get(name);
      if (!skill || skill.description !== this.descriptions[id]) removed.push(id);
    }
    if (removed.length > 0) this.remove(removed);
    // Removed docs leave gaps in the per-doc arrays: index afresh once they outnumber the live ones.
    if (view.size > 1024 && view.size > 2 * view.live) {
      this.clear();
      this.lastAdded = "";
    }
    // Words of removed skills stay in the table: bounded, so a library that keeps changing cannot grow it.
    else if (this.words.size > 4 * this.postings.size + 10_000) this.words.clear();
  }

  private finish(): void {
    const { view } = this;
    view.averageLength = view.live === 0 ? 0 : this.totalLength / view.live;
    view.generation++;
  }

  search(query: string, limit: number): IndexHit[] {
    if (this.view.live === 0 || limit <= 0) return [];
    return this.scorer
      .score(this.view, query, limit)
      .map(({ id, score, coverage }) => ({ name: this.names[id]!, score, coverage }));
  }

  // A word's posting, made when the word is first met; none for a stop word.
  private resolve(word: string): Posting | undefined {
    const term = searchTerm(word);
    if (term === null) return undefined;
    let posting = this.postings.get(term);
    if (!posting) {
      posting = this.shared.place(term, this.ordinals++);
      this.postings.set(term, posting);
      this.sortedTerms = undefined;
    }
    return posting;
  }

  // Adds the words of `text` to doc `id`'s postings at `weight`; returns how many it indexed.
  private addWords(text: string, id: number, weight: number): number {
    const count = this.words.valuesOf(text, this.found);
    for (let at = 0; at < count; at++) append(this.found[at]!, id, weight);
    return count;
  }

  private add(skill: SkillMetadata): void {
    const { view } = this;
    const id = view.size++;
    if (id === view.docLengths.length) view.docLengths = grown(view.docLengths, id * 2);
    this.names[id] = skill.name;
    this.descriptions[id] = skill.description;
    this.byName?.set(skill.name, id);
    const length = this.addWords(skill.name, id, NAME_WEIGHT) * NAME_WEIGHT + this.addWords(skill.description, id, 1);
    view.docLengths[id] = length;
    view.live++;
    this.totalLength += length;
  }

  // Adds the skills not indexed yet, from `start`, until `due()`; returns where it stopped. Of two
  // skills with one name, the first. No map of names while names come in order (a catalog's
  // always do), so a first build makes none.
  private addFrom(skills: readonly SkillMetadata[], start: number, due: () => boolean): number {
    for (let at = start; at < skills.length; at++) {
      if ((at & 63) === 63 && due()) return at;
      const skill = skills[at]!;
      const last = this.lastAdded;
      if (this.byName === undefined && (last === undefined || !(skill.name > last)))
        this.byName = namesById(this.names);
      if (this.byName?.has(skill.name)) continue;
      this.add(skill);
      this.lastAdded = skill.name;
    }
    return skills.length;
  }

  // The postings that hold doc `id`, read again from its text.
  private docPostings(id: number): Set<Posting> {
    const held = new Set<Posting>();
    for (const text of [this.names[id]!, this.descriptions[id]!]) {
      const count = this.words.valuesOf(text, this.found);
      for (let at = 0; at < count; at++) held.add(this.found[at]!);
    }
    return held;
  }

  // Removes docs, each posting they touch rewritten once.
  private remove(ids: readonly number[]): void {
    const gone = new Set(ids);
    const touched = new Set<Posting>();
    for (const id of ids) for (const posting of this.docPostings(id)) touched.add(posting);
    for (const posting of touched) {
      if (withoutDocs(posting, gone) > 0) continue;
      this.postings.delete(posting.term);
      posting.live = false;
      this.sortedTerms = undefined;
    }
    for (const id of ids) {
      this.byName!.delete(this.names[id]!);
      this.names[id] = undefined;
      this.totalLength -= this.view.docLengths[id]!;
      this.view.live--;
    }
  }

  private clear(): void {
    this.postings.clear();
    this.words.clear();
    this.names = [];
    this.descriptions = [];
    this.byName = undefined;
    this.sortedTerms = undefined;
    this.view.size = this.view.live = this.totalLength = 0;
  }
}

// Room for a new posting's first docs in arrays shared by many: most terms of a large library
// (its names' numbers, rare words) hold a doc or two, and two typed arrays of their own per term
// made most of what indexing 100,000 skills allocated; collecting it, which all survived, held
// the event loop for 30–90 ms at a time.
const SHARED_ROOM = 4;
const SHARED_BLOCK = 1 << 16;

function createSharedRoom(): { place(term: string, ordinal: number): Posting } {
  let docs = new Int32Array(0);
  let frequencies = new Int32Array(0);
  let used = 0;
  return {
    place(term, ordinal) {
      if (used === docs.length) {
        docs = new Int32Array(SHARED_BLOCK);
        frequencies = new Int32Array(SHARED_BLOCK);
        used = 0;
      }
      used += SHARED_ROOM;
      return { term, docs, frequencies, start: used - SHARED_ROOM, size: 0, end: used, live: true, ordinal };
    },
  };
}

// Adds doc `id` (the highest so far) to a posting at `weight`, or adds `weight` to its frequency.
// A posting that outgrows its room moves to arrays of its own.
function append(posting: Posting, id: number, weight: number): void {
  const last = posting.start + posting.size - 1;
  if (posting.size > 0 && posting.docs[last] === id) {
    posting.frequencies[last]! += weight;
    return;
  }
  if (posting.start + posting.size === posting.end) {
    const { start, size } = posting;
    posting.docs = grown(posting.docs.subarray(start, start + size), size * 2);
    posting.frequencies = grown(posting.frequencies.subarray(start, start + size), size * 2);
    posting.start = 0;
    posting.end = posting.docs.length;
  }
  const at = posting.start + posting.size++;
  posting.docs[at] = id;
  posting.frequencies[at] = weight;
}

// Drops the docs in `gone` from a posting, in place; returns how many it keeps.
function withoutDocs(posting: Posting, gone: ReadonlySet<number>): number {
  const { docs, frequencies, start } = posting;
  let kept = start;
  for (let at = start; at < start + posting.size; at++) {
    if (gone.has(docs[at]!)) continue;
    docs[kept] = docs[at]!;
    frequencies[kept++] = frequencies[at]!;
  }
  return (posting.size = kept - start);
}

function namesById(names: ReadonlyArray<string | undefined>): Map<string, number> {
  return new Map(names.flatMap((name, id) => (name === undefined ? [] : [[name, id] as const])));
}

function grown(array: Int32Array, length: number): Int32Array {
  const larger = new Int32Array(Math.max(length, 4));
  larger.set(array);
  return larger;
}
