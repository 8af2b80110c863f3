import { contentHash } from "../text/content-hash.js";
import type { EmbedTexts } from "./skill-search.js";

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

/** The unit vectors of texts, in their order. */
export type TextVectors = (texts: readonly string[]) => Promise<Float32Array[]>;

// Texts sent to the provider per request batch, and per cache write when a large library is
// embedded the first time: a failure late in a 10,000-skill library keeps what came before.
const EMBED_CHUNK = 512;

/**
 * Texts' vectors through `embed`, kept per content hash of the text in memory and in `cache`: a
 * text either holds is never sent again, so a changed catalog embeds only what changed and a new
 * process nothing it has seen. Shared by the embedding ranker and the doctor's rival check.
 */
export function createTextVectors(embed: EmbedTexts, cache?: EmbeddingCache): TextVectors {
  // Unit vectors, so that a cosine is one dot product.
  const vectors = new Map<string, Float32Array>();
  const hashes = new Map<string, string>();
  // One batch at a time, so parallel calls with new texts embed each once.
  let embedding: Promise<void> = Promise.resolve();
  const hashOf = (text: string) => {
    let hash = hashes.get(text);
    if (hash === undefined) hashes.set(text, (hash = contentHash(text)));
    return hash;
  };

  async function ensureVectors(texts: readonly string[]): Promise<void> {
    const run = embedding.then(async () => {
      const missing = [...new Set(texts.filter((text) => !vectors.has(hashOf(text))))];
      if (missing.length === 0) return;
      const stored = cache ? await cache.get(missing.map(hashOf)) : new Map<string, EmbeddingVector>();
      for (const [key, vector] of stored) vectors.set(key, unitVector(vector));
      await embedMissing(missing.filter((text) => !vectors.has(hashOf(text))));
    });
    embedding = run.catch(() => undefined);
    await run;
  }

  async function embedMissing(texts: readonly string[]): Promise<void> {
    const added = new Map<string, EmbeddingVector>();
    try {
      for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
        const chunk = texts.slice(start, start + EMBED_CHUNK);
        const embedded = await embed(chunk);
        if (embedded.length !== chunk.length)
          throw new Error(`The embeddings provider returned ${embedded.length} vectors for ${chunk.length} texts`);
        chunk.forEach((text, index) => {
          added.set(hashOf(text), embedded[index]!);
          vectors.set(hashOf(text), unitVector(embedded[index]!));
        });
      }
    } finally {
      if (added.size > 0) await cache?.set(added);
    }
  }

  return async (texts) => {
    await ensureVectors(texts);
    return texts.map((text) => vectors.get(hashOf(text))!);
  };
}

/** `vector` scaled to length 1; all zeros stays all zeros. */
export function unitVector(vector: EmbeddingVector): Float32Array {
  let norm = 0;
  for (let index = 0; index < vector.length; index++) norm += vector[index]! ** 2;
  const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
  const result = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) result[index] = vector[index]! * scale;
  return result;
}

/** The dot product; vectors of another length (a model that changed its size) are compared on what they share. */
export function dotProduct(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let index = 0; index < length; index++) sum += a[index]! * b[index]!;
  return sum;
}
