import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../core/diagnostic.js";
import { cacheFolder } from "../fs/cache-folder.js";
import { createEmbeddingCache } from "./embedding-cache.js";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "skillset-vectors-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const plain = (vectors: ReadonlyMap<string, ArrayLike<number>>) =>
  Object.fromEntries([...vectors].map(([key, vector]) => [key, Array.from(vector)]));

describe("createEmbeddingCache", () => {
  it("keeps vectors in one file per model, which a new cache (another process) reads back", async () => {
    const cache = createEmbeddingCache({ model: "openai:text-embedding-3-small", folder });
    await cache.set(
      new Map([
        ["a1", [0.5, -1, 2]],
        ["b2", [1, 0, 0.25]],
      ]),
    );
    await cache.set(new Map([["c3", [0, 0, 1]]]));
    expect(cache.file.slice(folder.length)).toMatch(/^[/\\]openai-text-embedding-3-small-[0-9a-f]{12}\.vectors$/);
    expect(readdirSync(folder)).toEqual([cache.file.slice(folder.length + 1)]);

    const again = createEmbeddingCache({ model: "openai:text-embedding-3-small", folder });
    expect(plain(await again.get(["a1", "c3", "zz"]))).toEqual({ a1: [0.5, -1, 2], c3: [0, 0, 1] });
    const other = createEmbeddingCache({ model: "openai:text-embedding-3-large", folder });
    expect(other.file).not.toBe(cache.file);
    expect((await other.get(["a1"])).size).toBe(0);
  });

  it("reports a corrupt or foreign file as a diagnostic, serves nothing from it, and rewrites it whole", async () => {
    const diagnostics: Diagnostic[] = [];
    const model = "ollama:nomic-embed-text";
    const file = createEmbeddingCache({ model, folder }).file;
    const cases: Array<[Buffer | string, string]> = [
      ["garbage", "not a skillset vectors file"],
      ["skillset-vectors 1\n{not json\n", "the header is not JSON"],
      [
        `skillset-vectors 1\n${JSON.stringify({ model: "openai:x", dimensions: 2, keys: [] })}\n`,
        "it holds vectors of another model, 'openai:x'",
      ],
      [
        `skillset-vectors 1\n${JSON.stringify({ model, dimensions: 2, keys: ["a"] })}\nabc`,
        "expected 8 bytes of vectors, found 3",
      ],
    ];
    for (const [content, reason] of cases) {
      writeFileSync(file, content);
      diagnostics.length = 0;
      const cache = createEmbeddingCache({ model, folder, onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) });
      expect((await cache.get(["a"])).size).toBe(0);
      expect(diagnostics).toEqual([
        {
          severity: "warning",
          code: "embedding-cache-unreadable",
          file,
          message: `The embedding cache cannot be read (${reason}); the vectors will be computed again and the file rewritten.`,
        },
      ]);
      await cache.set(new Map([["a", [1, 2]]]));
      expect(plain(await createEmbeddingCache({ model, folder }).get(["a"]))).toEqual({ a: [1, 2] });
    }
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it("says when the file cannot be written, and goes on", async () => {
    const diagnostics: Diagnostic[] = [];
    const blocker = join(folder, "not-a-folder");
    writeFileSync(blocker, "");
    const cache = createEmbeddingCache({
      model: "openai:m",
      folder: join(blocker, "embeddings"),
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
    await cache.set(new Map([["a", [1]]]));
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      [
        "embedding-cache-unreadable",
        "The embedding cache cannot be read (ENOTDIR); the vectors will be computed again.",
      ],
      [
        "embedding-cache-unwritable",
        "The embedding cache cannot be written (ENOTDIR); vectors will be computed again next time.",
      ],
    ]);
    expect(plain(await cache.get(["a"]))).toEqual({ a: [1] });
  });

  it("keeps at most maxEntries vectors, dropping the oldest, and drops vectors of another size", async () => {
    const cache = createEmbeddingCache({ model: "openai:m", folder, maxEntries: 2 });
    await cache.set(
      new Map([
        ["a", [1, 1]],
        ["b", [2, 2]],
      ]),
    );
    await cache.set(new Map([["c", [3, 3]]]));
    expect(plain(await createEmbeddingCache({ model: "openai:m", folder }).get(["a", "b", "c"]))).toEqual({
      b: [2, 2],
      c: [3, 3],
    });
    await cache.set(new Map([["d", [4, 4, 4]]]));
    expect(plain(await createEmbeddingCache({ model: "openai:m", folder }).get(["b", "c", "d"]))).toEqual({
      d: [4, 4, 4],
    });
    expect(readFileSync(cache.file).subarray(0, 19).toString()).toBe("skillset-vectors 1\n");
  });
});

describe("cacheFolder", () => {
  it("follows XDG_CACHE_HOME when absolute, else each platform's usual place", () => {
    expect(cacheFolder({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/u")).toBe(join("/x/cache", "skillset"));
    expect(cacheFolder({ XDG_CACHE_HOME: "relative" }, "linux", "/home/u")).toBe(join("/home/u", ".cache", "skillset"));
    expect(cacheFolder({}, "darwin", "/Users/u")).toBe(join("/Users/u", "Library", "Caches", "skillset"));
    expect(cacheFolder({ LOCALAPPDATA: "C:\\L" }, "win32", "C:\\u")).toBe(join("C:\\L", "skillset", "Cache"));
  });
});
