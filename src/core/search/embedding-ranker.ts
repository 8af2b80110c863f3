import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { EmbedTexts, SkillRanker } from "./skill-search.js";
import { createTextVectors, dotProduct, unitVector, type EmbeddingCache } from "./text-vectors.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";

/** LangChain's `Embeddings` interface, as far as the ranker uses it. */
export interface EmbeddingsLike {
  embedDocuments: EmbedTexts;
  embedQuery(text: string): Promise<number[]>;
}

/** Options of {@link createEmbeddingRanker}. */
export interface EmbeddingRankerOptions {
  /** Keeps skill vectors between processes; without it they live as long as the ranker. */
  cache?: EmbeddingCache;
  /**
   * Called when the provider fails; the ranker then gives no results for that search, so fused
   * search goes on with the other rankers. Without it, the error is thrown.
   */
  onError?: (error: unknown) => void;
}

const EMBEDDING_RANKER_OPTIONS = { cache: true, onError: true } as const satisfies KnownOptions<EmbeddingRankerOptions>;

/**
 * A ranker by meaning: cosine similarity between the query's vector and each skill's (name and
 * description). Vectors are kept per content hash of that text, in memory and in `cache`, so a
 * changed catalog embeds only what changed and a new process embeds nothing it has seen.
 * Accepts a function or a LangChain `Embeddings` (`embedDocuments` / `embedQuery`).
 */
export function createEmbeddingRanker(
  embeddings: EmbedTexts | EmbeddingsLike,
  options: EmbeddingRankerOptions = {},
): SkillRanker {
  refuseUnknownOptions("createEmbeddingRanker", options, EMBEDDING_RANKER_OPTIONS);
  const embedDocuments =
    typeof embeddings === "function" ? embeddings : (texts: string[]) => embeddings.embedDocuments(texts);
  const embedQuery =
    typeof embeddings === "function"
      ? async (text: string) => (await embeddings([text]))[0]!
      : (text: string) => embeddings.embedQuery(text);
  const vectorsOf = createTextVectors(embedDocuments, options.cache);

  return async (query, skills, limit) => {
    try {
      const vectors = await vectorsOf(skills.map(skillText));
      const wanted = unitVector(await embedQuery(query));
      return skills
        .map((skill, index) => ({ name: skill.name, score: dotProduct(wanted, vectors[index]!) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    } catch (error) {
      if (!options.onError) throw error;
      options.onError(error);
      return [];
    }
  };
}

/** The text embedded for a skill: its name, words apart, and its description. */
export function skillText(skill: Pick<SkillMetadata, "name" | "description">): string {
  return `${skill.name.replace(/[-_]/g, " ")}: ${skill.description}`;
}
