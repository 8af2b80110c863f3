import MiniSearch from "minisearch";
import type { SkillMetadata } from "./skill-metadata.js";

/** One skill a ranker found, with the ranker's own score (higher is better). */
export interface RankedSkill {
  name: string;
  score: number;
}

/**
 * Ranks the catalog's skills for a query, best first, at most `limit`. Called with the same
 * `skills` array while the catalog is unchanged, so a ranker may keep an index keyed by it.
 */
export type SkillRanker = (query: string, skills: readonly SkillMetadata[], limit: number) => Promise<readonly RankedSkill[]> | readonly RankedSkill[];

/** Texts to vectors, one per text, e.g. `(texts) => embeddings.embedDocuments(texts)`. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

// Words that say nothing about which skill is meant. Kept short: in skill descriptions, words
// like "create", "file" or "test" do carry meaning.
const STOP_WORDS = new Set(
  "a an and are as at be but by can could do does for from have help how i in into is it its me my of on or our please should so that the their them then there these this to use used using want was we what when where which while who why will with would you your".split(" "),
);

/**
 * The default ranker: BM25 (MiniSearch) over the name, split at hyphens and weighted higher, and
 * the description, with light English stemming, prefix matches for longer words and typo
 * tolerance for long ones. The index follows the catalog: when it changes, only added, removed
 * or changed skills are indexed again.
 */
export function createLexicalRanker(): SkillRanker {
  const index = new MiniSearch<IndexedSkill>({
    fields: ["name", "description"],
    storeFields: ["name"],
    processTerm: normaliseTerm,
    searchOptions: {
      boost: { name: 2 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
      weights: { prefix: 0.3, fuzzy: 0.2 },
    },
  });
  const indexed = new Map<string, IndexedSkill>();
  let current: readonly SkillMetadata[] | undefined;
  let nextId = 0;

  const follow = (skills: readonly SkillMetadata[]) => {
    if (skills === current) return;
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    for (const [name, entry] of indexed) {
      const skill = wanted.get(name);
      if (skill && sameText(entry, skill)) continue;
      index.discard(entry.id);
      indexed.delete(name);
    }
    const added: IndexedSkill[] = [];
    for (const skill of skills) {
      if (indexed.has(skill.name)) continue;
      const entry = { id: nextId++, name: skill.name, description: skill.description };
      indexed.set(skill.name, entry);
      added.push(entry);
    }
    index.addAll(added);
    current = skills;
  };

  return (query, skills, limit) => {
    follow(skills);
    return index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ name: hit.name as string, score: hit.score }));
  };
}

/**
 * A ranker by meaning: cosine similarity between the query's vector and each skill's (name and
 * description), with vectors cached per skill text so a changed catalog embeds only what changed.
 * Accepts a function or a LangChain `Embeddings` (`embedDocuments` / `embedQuery`).
 */
export function createEmbeddingRanker(embeddings: EmbedTexts | { embedDocuments: EmbedTexts; embedQuery(text: string): Promise<number[]> }): SkillRanker {
  const embedDocuments = typeof embeddings === "function" ? embeddings : (texts: string[]) => embeddings.embedDocuments(texts);
  const embedQuery = typeof embeddings === "function" ? async (text: string) => (await embeddings([text]))[0]! : (text: string) => embeddings.embedQuery(text);
  const vectors = new Map<string, number[]>();
  return async (query, skills, limit) => {
    const texts = skills.map(skillText);
    const missing = [...new Set(texts.filter((text) => !vectors.has(text)))];
    if (missing.length > 0) {
      const embedded = await embedDocuments(missing);
      missing.forEach((text, index) => vectors.set(text, embedded[index]!));
    }
    const wanted = await embedQuery(query);
    return skills
      .map((skill, index) => ({ name: skill.name, score: cosine(wanted, vectors.get(texts[index]!)!) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  };
}

/**
 * Reciprocal rank fusion: each ranking gives a skill `1 / (60 + rank)`; the sums decide. Robust
 * to rankers whose scores are on different scales, which is why it fuses lexical and vector search.
 */
export function fuseRankings(rankings: ReadonlyArray<readonly RankedSkill[]>, limit: number): RankedSkill[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((entry, rank) => scores.set(entry.name, (scores.get(entry.name) ?? 0) + 1 / (60 + rank + 1)));
  }
  return [...scores].map(([name, score]) => ({ name, score })).sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)).slice(0, limit);
}

interface IndexedSkill {
  id: number;
  name: string;
  description: string;
}

function sameText(entry: IndexedSkill, skill: SkillMetadata): boolean {
  return entry.description === skill.description;
}

function skillText(skill: SkillMetadata): string {
  return `${skill.name.replace(/[-_]/g, " ")}: ${skill.description}`;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * (b[index] ?? 0);
    normA += a[index]! ** 2;
    normB += (b[index] ?? 0) ** 2;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

// Lower case, without stop words, with the commonest English endings removed so "merging",
// "merged" and "merges" meet "merge".
function normaliseTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  return stem(word);
}

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
