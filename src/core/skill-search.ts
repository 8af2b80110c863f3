import { createLexicalIndex } from "./lexical-index.js";
import type { RankedSkill } from "./ranked-skill.js";
import type { SkillMetadata } from "./skill-metadata.js";

export type { RankedSkill };

/**
 * Ranks the catalog's skills for a query, best first, at most `limit`. Called with the same
 * `skills` array while the catalog is unchanged, so a ranker may keep an index keyed by it.
 */
export type SkillRanker = (query: string, skills: readonly SkillMetadata[], limit: number) => Promise<readonly RankedSkill[]> | readonly RankedSkill[];

/** Texts to vectors, one per text, e.g. `(texts) => embeddings.embedDocuments(texts)`. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/**
 * The default ranker: BM25 over the name, split at hyphens and weighted twice, and the
 * description, with light English stemming, prefix matches for longer words (at a lower weight)
 * and, for words no skill uses, typo tolerance (one edit). The index follows the catalog: when
 * it changes, only added, removed or changed skills are indexed again.
 */
export function createLexicalRanker(): SkillRanker {
  const index = createLexicalIndex();
  let current: readonly SkillMetadata[] | undefined;
  return (query, skills, limit) => {
    if (skills !== current) {
      index.follow(skills);
      current = skills;
    }
    return index.search(query, limit);
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

/** The text a skill is embedded by: its name, split at hyphens, and its description. */
export function skillText(skill: Pick<SkillMetadata, "name" | "description">): string {
  return `${skill.name.replace(/[-_]/g, " ")}: ${skill.description}`;
}

/** Cosine similarity of two vectors; 0 when either is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
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
