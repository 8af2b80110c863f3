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
