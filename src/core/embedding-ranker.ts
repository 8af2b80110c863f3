import { contentHash } from "./content-hash.js";
import type { RankedSkill } from "./ranked-skill.js";
import type { SkillMetadata } from "./skill-metadata.js";
import type { EmbedTexts, SkillRanker } from "./skill-search.js";

/** A vector, as a provider returns it (`number[]`) or as a cache keeps it (`Float32Array`). */
export type EmbeddingVector = ArrayLike<number>;

/**
 * Where skill vectors are kept between processes, for one embedding model: keys are content
 * hashes of the text embedded, so an unchanged skill is never embedded again. `skillset/node`'s
 * `createEmbeddingCache` keeps them in a file.
 */
export interface EmbeddingCache {
  /** The vectors stored for `keys`; keys without one are left out. */
  get(keys: readonly string[]): Promise<ReadonlyMap<string, EmbeddingVector>>;
  /** Stores vectors, keeping those already stored. */
  set(entries: ReadonlyMap<string, EmbeddingVector>): Promise<void>;
}

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

// Texts sent to the provider per request batch, and per cache write when a large library is
// embedded the first time: a failure late in a 10,000-skill library keeps what came before.
const EMBED_CHUNK = 512;

/**
 * A ranker by meaning: cosine similarity between the query's vector and each skill's (name and
 * description). Vectors are kept per content hash of that text, in memory and in `cache`, so a
 * changed catalog embeds only what changed and a new process embeds nothing it has seen.
 * Accepts a function or a LangChain `Embeddings` (`embedDocuments` / `embedQuery`).
 */
export function createEmbeddingRanker(embeddings: EmbedTexts | EmbeddingsLike, options: EmbeddingRankerOptions = {}): SkillRanker {
  const embedDocuments = typeof embeddings === "function" ? embeddings : (texts: string[]) => embeddings.embedDocuments(texts);
  const embedQuery = typeof embeddings === "function" ? async (text: string) => (await embeddings([text]))[0]! : (text: string) => embeddings.embedQuery(text);
  // Unit vectors, so that ranking is one dot product a skill.
  const vectors = new Map<string, Float32Array>();
  const hashes = new Map<string, string>();
  // One batch at a time, so parallel searches of a new catalog embed each skill once.
  let embedding: Promise<void> = Promise.resolve();

  async function ensureVectors(texts: readonly string[]): Promise<void> {
    for (const text of texts) if (!hashes.has(text)) hashes.set(text, contentHash(text));
    const run = embedding.then(async () => {
      const missing = [...new Set(texts.filter((text) => !vectors.has(hashes.get(text)!)))];
      if (missing.length === 0) return;
      const stored = options.cache ? await options.cache.get(missing.map((text) => hashes.get(text)!)) : new Map<string, EmbeddingVector>();
      for (const [key, vector] of stored) vectors.set(key, unit(vector));
      await embedMissing(missing.filter((text) => !vectors.has(hashes.get(text)!)));
    });
    embedding = run.catch(() => undefined);
    await run;
  }

  async function embedMissing(texts: readonly string[]): Promise<void> {
    const added = new Map<string, EmbeddingVector>();
    try {
      for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
        const chunk = texts.slice(start, start + EMBED_CHUNK);
        const embedded = await embedDocuments(chunk);
        if (embedded.length !== chunk.length) throw new Error(`The embeddings provider returned ${embedded.length} vectors for ${chunk.length} texts`);
        chunk.forEach((text, index) => {
          added.set(hashes.get(text)!, embedded[index]!);
          vectors.set(hashes.get(text)!, unit(embedded[index]!));
        });
      }
    } finally {
      if (added.size > 0) await options.cache?.set(added);
    }
  }

  return async (query, skills, limit) => {
    try {
      const texts = skills.map(skillText);
      await ensureVectors(texts);
      const wanted = await embedQuery(query);
      return rankByCosine(unit(wanted), skills, (index) => vectors.get(hashes.get(texts[index]!)!)!, limit);
    } catch (error) {
      if (!options.onError) throw error;
      options.onError(error);
      return [];
    }
  };
}

function rankByCosine(wanted: Float32Array, skills: readonly SkillMetadata[], vectorOf: (index: number) => Float32Array, limit: number): RankedSkill[] {
  return skills
    .map((skill, index) => ({ name: skill.name, score: dot(wanted, vectorOf(index)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** The text embedded for a skill: its name, words apart, and its description. */
export function skillText(skill: Pick<SkillMetadata, "name" | "description">): string {
  return `${skill.name.replace(/[-_]/g, " ")}: ${skill.description}`;
}

/** Cosine similarity of two vectors; 0 when either is all zeros. */
export function cosineSimilarity(a: EmbeddingVector, b: EmbeddingVector): number {
  return dot(unit(a), unit(b));
}

function unit(vector: EmbeddingVector): Float32Array {
  let norm = 0;
  for (let index = 0; index < vector.length; index++) norm += vector[index]! ** 2;
  const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
  const result = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) result[index] = vector[index]! * scale;
  return result;
}

// Vectors of another length (a model that changed its size) are compared on what they share.
function dot(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let index = 0; index < length; index++) sum += a[index]! * b[index]!;
  return sum;
}
