import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import type { EmbeddingCache, EmbeddingVector } from "../core/search/text-vectors.js";
import { cacheFolder } from "../fs/cache-folder.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

/** Options of {@link createEmbeddingCache}. */
export interface EmbeddingCacheOptions {
  /** The embedding model, e.g. `openai:text-embedding-3-small`: each model has a file of its own. */
  model: string;
  /** The folder of the cache files. @default `embeddings` in the user's cache folder (`$XDG_CACHE_HOME/skillset`, `~/.cache/skillset`, …) */
  folder?: string;
  /** Most vectors kept; the oldest go first. @default 50000 */
  maxEntries?: number;
  /** Told when the file cannot be read (its vectors are then computed again) or written. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** A file-backed {@link EmbeddingCache}, with the file it uses. */
export interface EmbeddingFileCache extends EmbeddingCache {
  readonly file: string;
}

const MAGIC = "skillset-vectors 1\n";
const DEFAULT_MAX_ENTRIES = 50_000;

const EMBEDDING_CACHE_OPTIONS = {
  model: true,
  folder: true,
  maxEntries: true,
  onDiagnostic: true,
} as const satisfies KnownOptions<EmbeddingCacheOptions>;

/**
 * Skill vectors of one embedding model in one file, for `createEmbeddingRanker`'s `cache`: keyed
 * by the content hash of the text embedded, so a library is embedded once and an unchanged skill
 * never again, across processes. The file is a small JSON header and float32 data; it is read once,
 * then rewritten whole (to a temporary file, renamed over it) when vectors are added, so a reader
 * never sees half a file. An unreadable file is a diagnostic and is rebuilt, never an error.
 */
export function createEmbeddingCache(options: EmbeddingCacheOptions): EmbeddingFileCache {
  refuseUnknownOptions("createEmbeddingCache", options, EMBEDDING_CACHE_OPTIONS);
  const folder = options.folder ?? join(cacheFolder(), "embeddings");
  const file = join(folder, cacheFileName(options.model));
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  let stored: Promise<Map<string, EmbeddingVector>> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const report = (code: string, message: string) =>
    options.onDiagnostic?.({ severity: "warning", code, file, message });

  const load = () =>
    (stored ??= readFile(file).then(
      (bytes) => {
        const parsed = parseVectors(bytes, options.model);
        if (typeof parsed === "string")
          report(
            "embedding-cache-unreadable",
            `The embedding cache cannot be read (${parsed}); the vectors will be computed again and the file rewritten.`,
          );
        return typeof parsed === "string" ? new Map() : parsed;
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT")
          report(
            "embedding-cache-unreadable",
            `The embedding cache cannot be read (${error.code ?? error.message}); the vectors will be computed again.`,
          );
        return new Map<string, EmbeddingVector>();
      },
    ));

  return {
    file,
    async get(keys) {
      const vectors = await load();
      return new Map(keys.flatMap((key) => (vectors.has(key) ? [[key, vectors.get(key)!] as const] : [])));
    },
    async set(entries) {
      const vectors = await load();
      const dimensions = first(entries)?.length;
      // Another size (a model option changed): the old vectors cannot be compared with the new.
      if (dimensions !== undefined && first(vectors) !== undefined && first(vectors)!.length !== dimensions)
        vectors.clear();
      // Deleted first so a key set again counts as new for the oldest-first eviction.
      for (const [key, vector] of entries) {
        vectors.delete(key);
        vectors.set(key, Float32Array.from(vector));
      }
      for (const key of vectors.keys()) {
        if (vectors.size <= maxEntries) break;
        vectors.delete(key);
      }
      writing = writing.then(() =>
        writeAtomically(folder, file, serializeVectors(vectors, options.model)).catch(
          (error: NodeJS.ErrnoException) => {
            report(
              "embedding-cache-unwritable",
              `The embedding cache cannot be written (${error.code ?? error.message}); vectors will be computed again next time.`,
            );
          },
        ),
      );
      await writing;
    },
  };
}

// The model's name made safe for a file name, with a hash so that two names never share a file.
function cacheFileName(model: string): string {
  const slug = model
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "model"}-${createHash("sha256").update(model).digest("hex").slice(0, 12)}.vectors`;
}

function first(vectors: ReadonlyMap<string, EmbeddingVector>): EmbeddingVector | undefined {
  return vectors.values().next().value;
}

function serializeVectors(vectors: ReadonlyMap<string, EmbeddingVector>, model: string): Buffer {
  const dimensions = first(vectors)?.length ?? 0;
  const header = Buffer.from(`${MAGIC}${JSON.stringify({ model, dimensions, keys: [...vectors.keys()] })}\n`);
  const data = new Float32Array(vectors.size * dimensions);
  let offset = 0;
  for (const vector of vectors.values()) {
    data.set(vector, offset);
    offset += dimensions;
  }
  return Buffer.concat([header, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

/** The vectors of a cache file, or why it cannot be used. */
function parseVectors(bytes: Buffer, model: string): Map<string, EmbeddingVector> | string {
  if (bytes.subarray(0, MAGIC.length).toString("latin1") !== MAGIC) return "not a skillset vectors file";
  const end = bytes.indexOf(10, MAGIC.length);
  if (end < 0) return "no header";
  let header: { model?: unknown; dimensions?: unknown; keys?: unknown };
  try {
    header = JSON.parse(bytes.subarray(MAGIC.length, end).toString("utf8")) as typeof header;
  } catch {
    return "the header is not JSON";
  }
  const { dimensions, keys } = header;
  if (header.model !== model) return `it holds vectors of another model, '${String(header.model)}'`;
  if (!Number.isSafeInteger(dimensions) || (dimensions as number) < 0) return "the header has no dimensions";
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === "string")) return "the header has no keys";
  const size = keys.length * (dimensions as number) * 4;
  if (bytes.length - end - 1 !== size) return `expected ${size} bytes of vectors, found ${bytes.length - end - 1}`;
  // Copied out, so the floats are aligned whatever the header's length.
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + end + 1, bytes.byteOffset + bytes.length));
  const width = dimensions as number;
  return new Map(keys.map((key: string, index) => [key, data.subarray(index * width, (index + 1) * width)]));
}

async function writeAtomically(folder: string, file: string, bytes: Buffer): Promise<void> {
  await mkdir(folder, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
