import { describe, expect, it } from "vitest";
import { createEmbeddingRanker, skillText } from "./embedding-ranker.js";
import type { EmbeddingCache, EmbeddingVector } from "./text-vectors.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const skill = (name: string, description: string): SkillMetadata => ({
  name,
  description,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
});
const LIBRARY = [
  skill("pdf-forms", "Fill PDF forms."),
  skill("image-resizer", "Resize images for the web."),
  skill("release-notes", "Write release notes."),
];
const vector = (text: string) => [text.includes("PDF") ? 1 : 0, text.includes("images") ? 1 : 0, 0.1];

// A cache in memory that records what it was asked, standing in for another process's file.
function memoryCache() {
  const stored = new Map<string, EmbeddingVector>();
  const cache: EmbeddingCache & { stored: typeof stored; sets: number } = {
    stored,
    sets: 0,
    get: async (keys) => new Map(keys.filter((key) => stored.has(key)).map((key) => [key, stored.get(key)!])),
    set: async (entries) => {
      cache.sets++;
      for (const [key, value] of entries) stored.set(key, value);
    },
  };
  return cache;
}

function recordingEmbedder() {
  const batches: string[][] = [];
  const embed = async (texts: string[]) => {
    batches.push(texts);
    return texts.map(vector);
  };
  return { batches, embed };
}

describe("createEmbeddingRanker with a cache", () => {
  it("embeds a skill once across rankers that share the cache, and again only when its text changes", async () => {
    const cache = memoryCache();
    const first = recordingEmbedder();
    expect((await createEmbeddingRanker(first.embed, { cache })("images", LIBRARY, 1))[0]!.name).toBe("image-resizer");
    expect(first.batches).toEqual([LIBRARY.map(skillText), ["images"]]);
    expect(cache.stored.size).toBe(3);

    // A new ranker, as a new process would have: the catalog's vectors come from the cache.
    const second = recordingEmbedder();
    const changed = [
      LIBRARY[0]!,
      LIBRARY[1]!,
      skill("release-notes", "Write release notes from merged pull requests."),
    ];
    expect((await createEmbeddingRanker(second.embed, { cache })("PDF", changed, 1))[0]!.name).toBe("pdf-forms");
    expect(second.batches).toEqual([["release notes: Write release notes from merged pull requests."], ["PDF"]]);
    expect(cache.stored.size).toBe(4);
  });

  it("keys vectors by a content hash, not by the text itself", async () => {
    const cache = memoryCache();
    await createEmbeddingRanker(recordingEmbedder().embed, { cache })("images", LIBRARY, 1);
    expect([...cache.stored.keys()].every((key) => /^[0-9a-f]{1,8}[0-9a-f]{1,8}:\d+$/.test(key))).toBe(true);
  });

  it("embeds a new catalog once when searches run in parallel", async () => {
    const { batches, embed } = recordingEmbedder();
    const rank = createEmbeddingRanker(embed, { cache: memoryCache() });
    await Promise.all([rank("PDF", LIBRARY, 1), rank("images", LIBRARY, 1), rank("notes", LIBRARY, 1)]);
    expect(batches.filter((batch) => batch.length === 3)).toHaveLength(1);
    expect(batches).toHaveLength(4);
  });

  it("sends a large library in batches of 512 and caches the batches that came back when a later one fails", async () => {
    const cache = memoryCache();
    const many = Array.from({ length: 1200 }, (_, index) => skill(`skill-${index}`, `Task ${index}.`));
    const sizes: number[] = [];
    const rank = createEmbeddingRanker(
      async (texts) => {
        sizes.push(texts.length);
        if (sizes.length === 3) throw new Error("rate limited");
        return texts.map(vector);
      },
      { cache },
    );
    await expect(rank("task", many, 5)).rejects.toThrow("rate limited");
    expect(sizes).toEqual([512, 512, 176]);
    expect(cache.stored.size).toBe(1024);
    expect(cache.sets).toBe(1);
  });

  it("with onError, a failing provider gives no results instead of an error, and is reported", async () => {
    const errors: unknown[] = [];
    const rank = createEmbeddingRanker(
      async () => {
        throw new Error("connection refused");
      },
      { onError: (error) => errors.push(error) },
    );
    expect(await rank("PDF", LIBRARY, 3)).toEqual([]);
    expect(errors.map((error) => (error as Error).message)).toEqual(["connection refused"]);
    await expect(createEmbeddingRanker(async () => [])("PDF", LIBRARY, 3)).rejects.toThrow(
      "The embeddings provider returned 0 vectors for 3 texts",
    );
  });
});
