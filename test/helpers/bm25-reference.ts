// The lexical ranker's scores the simplest way: straight from the skills' texts, one doc at a
// time, every query word in order, with no index, no per-doc arrays and no shortcut. Tests hold the
// index to it: same docs, same scores to the bit (the floating-point sums in the same order), same
// coverage. Text analysis (stems, stop words, aliases, request verbs) is the library's own.
import { PREFIX_WEIGHT, TYPO_WEIGHT, withinOneEdit } from "../../src/core/search/query-term-expansion.js";
import { queryWords } from "../../src/core/search/query-words.js";
import { searchTerms } from "../../src/core/search/search-terms.js";
import type { SkillMetadata } from "../../src/core/skill-file/skill-metadata.js";

const K1 = 1.2;
const B = 0.75;

export interface ReferenceHit {
  name: string;
  score: number;
  coverage: number;
}

interface Term {
  term: string;
  weight: number;
  idfWeight: number;
}

/** Every skill that matches `query`, best first, ties to the earlier skill, as a new index over `skills` scores them. */
export function referenceSearch(skills: readonly SkillMetadata[], query: string): ReferenceHit[] {
  // A new index keeps the first skill of each name, its terms in the order it first met them.
  const names = new Set<string>();
  const docs = skills.filter((skill) => !names.has(skill.name) && names.add(skill.name));
  const frequencies = docs.map((skill) => {
    const counts = new Map<string, number>();
    for (const term of searchTerms(skill.name)) counts.set(term, (counts.get(term) ?? 0) + 2);
    for (const term of searchTerms(skill.description)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const lengths = docs.map((skill) => 2 * searchTerms(skill.name).length + searchTerms(skill.description).length);
  const documents = new Map<string, number>();
  for (const counts of frequencies)
    for (const term of counts.keys()) documents.set(term, (documents.get(term) ?? 0) + 1);
  const idf = (count: number) => Math.log(1 + (docs.length - count + 0.5) / (count + 0.5));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / docs.length;
  const sorted = [...documents.keys()].sort();
  const reached = (word: string): Term[] => {
    const matches: Array<[string, number]> = [];
    if (documents.has(word)) matches.push([word, 1]);
    else if (word.length >= 5)
      for (const term of documents.keys())
        if (Math.abs(term.length - word.length) <= 1 && withinOneEdit(word, term)) matches.push([term, TYPO_WEIGHT]);
    if (word.length >= 4)
      matches.push(
        ...sorted
          .filter((term) => term !== word && term.startsWith(word))
          .slice(0, 64)
          .map((term): [string, number] => [term, PREFIX_WEIGHT]),
      );
    return matches.map(([term, weight]) => ({ term, weight, idfWeight: weight * idf(documents.get(term)!) }));
  };
  const words = queryWords(query).map((word) => ({
    weight: word.weight,
    informative: word.weight < 1 ? 0 : Math.max(...word.spellings.map(([term]) => idf(documents.get(term) ?? 0))),
    spellings: word.spellings.map(([spelling, weight]) => ({ weight, terms: reached(spelling) })),
  }));
  const hits = docs.map((skill, id) => {
    const counts = frequencies[id]!;
    const norm = K1 * (1 - B + (B * lengths[id]!) / averageLength);
    const value = ({ term, idfWeight }: Term) => {
      const frequency = counts.get(term);
      return frequency === undefined ? 0 : (idfWeight * frequency * (K1 + 1)) / (frequency + norm);
    };
    let score = 0;
    for (const word of words) {
      const [first] = word.spellings;
      if (word.spellings.length === 1 && first!.terms.length === 1) {
        if (counts.has(first!.terms[0]!.term)) score += word.weight * value(first!.terms[0]!);
        continue;
      }
      // The best spelling; each sums its terms (one spelling alone counts at its sum).
      let best = 0;
      for (const spelling of word.spellings) {
        let sum = 0;
        for (const term of spelling.terms) if (counts.has(term.term)) sum += value(term);
        if (word.spellings.length === 1) best = sum;
        else if (sum !== 0) best = Math.max(best, spelling.weight * sum);
      }
      if (best !== 0) score += word.weight * best;
    }
    return { name: skill.name, score, coverage: coverage(words, counts), id };
  });
  return hits
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map(({ name, score, coverage }) => ({ name, score, coverage }));
}

function coverage(
  words: ReadonlyArray<{ informative: number; spellings: ReadonlyArray<{ weight: number; terms: readonly Term[] }> }>,
  counts: ReadonlyMap<string, number>,
): number {
  let total = 0;
  let covered = 0;
  for (const word of words) {
    total += word.informative;
    let match = 0;
    let reached = false;
    for (const spelling of word.spellings)
      for (const term of spelling.terms) {
        if (!counts.has(term.term)) continue;
        reached = true;
        if (match < spelling.weight * term.weight) match = spelling.weight * term.weight;
      }
    if (reached) covered += word.informative * Math.min(1, match);
  }
  return total === 0 ? 0 : covered / total;
}
