import type { SkillMetadata } from "./skill-metadata.js";
import type { RankedSkill } from "./skill-search.js";

/**
 * An inverted index over skill names and descriptions, scored with BM25 at query time. Written
 * for this job rather than taken from a search library because a library (MiniSearch, measured)
 * takes 15–35 ms a query at 10,000 skills, where common words match thousands of skills; this
 * one adds a query's postings into one reused array and keeps the best few, well under 1 ms.
 */
export interface LexicalIndex {
  /** Makes the index hold exactly `skills`: only added, removed or changed skills are (re)indexed. */
  follow(skills: readonly SkillMetadata[]): void;
  search(query: string, limit: number): RankedSkill[];
}

// BM25's usual constants; the name counts twice, as a heading would.
const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 2;
const PREFIX_WEIGHT = 0.3;
const TYPO_WEIGHT = 0.2;
const MAX_PREFIX_TERMS = 64;

// Words that say nothing about which skill is meant. Kept short: in skill descriptions, words
// like "create", "file" or "test" do carry meaning.
const STOP_WORDS = new Set(
  "a an and are as at be but by can could do does for from have help how i in into is it its me my of on or our please should so that the their them then there these this to use used using want was we what when where which while who why will with would you your".split(" "),
);

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
  let scores = new Float64Array(0);

  function add(skill: SkillMetadata): void {
    const frequencies = new Map<string, number>();
    const count = (words: readonly string[], weight: number) => {
      for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + weight);
    };
    const nameTerms = terms(skill.name);
    const descriptionTerms = terms(skill.description);
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

  // The query's terms with their weights: each word itself, longer words also as prefixes of
  // indexed words, and a word no skill uses as the indexed words one edit away (a typo).
  function expand(word: string): Array<[string, number]> {
    const matches: Array<[string, number]> = [];
    if (postings.has(word)) matches.push([word, 1]);
    else for (const near of oneEditAway(word)) matches.push([near, TYPO_WEIGHT]);
    if (word.length >= 4) {
      sortedTerms ??= [...postings.keys()].sort();
      let at = lowerBound(sortedTerms, word);
      for (let taken = 0; at < sortedTerms.length && taken < MAX_PREFIX_TERMS && sortedTerms[at]!.startsWith(word); at++) {
        if (sortedTerms[at] === word) continue;
        matches.push([sortedTerms[at]!, PREFIX_WEIGHT]);
        taken++;
      }
    }
    return matches;
  }

  function oneEditAway(word: string): string[] {
    if (word.length < 5) return [];
    const found: string[] = [];
    for (const term of postings.keys()) if (Math.abs(term.length - word.length) <= 1 && withinOneEdit(word, term)) found.push(term);
    return found;
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
      if (scores.length < docs.length) scores = new Float64Array(docs.length * 2);
      const averageLength = totalLength / live;
      const touched: number[] = [];
      for (const word of new Set(terms(query))) {
        for (const [term, weight] of expand(word)) {
          const posting = postings.get(term)!;
          const idf = Math.log(1 + (live - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
          for (let at = 0; at < posting.docs.length; at++) {
            const id = posting.docs[at]!;
            const frequency = posting.frequencies[at]!;
            if (scores[id] === 0) touched.push(id);
            scores[id]! += (weight * idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * docs[id]!.length) / averageLength));
          }
        }
      }
      const best = topScores(touched, scores, limit);
      for (const id of touched) scores[id] = 0;
      return best.map(({ id, score }) => ({ name: docs[id]!.name, score }));
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

// Words repeat across a library: each is stemmed once (bounded, so odd input cannot grow it).
const stemmed = new Map<string, string | null>();
const MAX_STEMMED = 100_000;

/** The words of a text as the index keeps them: lower case, no stop words, stemmed. */
function terms(text: string): string[] {
  const words: string[] = [];
  const lower = text.toLowerCase();
  // The Unicode-aware split is several times slower; most descriptions are ASCII.
  for (const raw of lower.split(/^[ -~\t\n\r]*$/.test(lower) ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u)) {
    if (raw === "") continue;
    let word = stemmed.get(raw);
    if (word === undefined) {
      word = STOP_WORDS.has(raw) ? null : stem(raw);
      if (stemmed.size < MAX_STEMMED) stemmed.set(raw, word);
    }
    if (word !== null) words.push(word);
  }
  return words;
}

// The commonest English endings, so "merging", "merged" and "merges" meet "merge".
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ing") && word.length > 5) return dropDouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return dropDouble(word.slice(0, -2));
  if (word.endsWith("es") && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1);
  return word;
}

// "running" → "run", but "fill" stays "fill".
function dropDouble(word: string): string {
  return /([bdgmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
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

// One substitution, insertion, deletion or swap of neighbours turns `a` into `b`.
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const restA = a.slice(start + 1);
  const restB = b.slice(start + 1);
  if (a.length === b.length) return restA === restB || (a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2));
  return a.length > b.length ? a.slice(start + 1) === b.slice(start) : a.slice(start) === restB;
}
