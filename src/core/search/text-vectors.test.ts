import { describe, expect, it } from "vitest";
import { contentHash } from "../text/content-hash.js";
import { createTextVectors, type EmbeddingCache, type EmbeddingVector } from "./text-vectors.js";

describe("createTextVectors", () => {
  it("gives unit vectors in the texts' order, sending each new text once and none the cache holds", async () => {
    const sent: string[][] = [];
    const stored = new Map<string, EmbeddingVector>([[contentHash("cached"), [0, 0, 2]]]);
    const cache: EmbeddingCache = {
      get: async (keys) => new Map(keys.flatMap((key) => (stored.has(key) ? [[key, stored.get(key)!] as const] : []))),
      set: async (entries) => void entries.forEach((vector, key) => stored.set(key, vector)),
    };
    const vectorsOf = createTextVectors(async (texts) => {
      sent.push(texts);
      return texts.map((text) => (text === "a" ? [3, 4, 0] : [0, 5, 0]));
    }, cache);
    const vectors = await vectorsOf(["a", "b", "a", "cached"]);
    expect(vectors.map((vector) => [...vector])).toEqual([
      [0.6, 0.8, 0].map(Math.fround),
      [0, 1, 0],
      [0.6, 0.8, 0].map(Math.fround),
      [0, 0, 1],
    ]);
    expect(sent).toEqual([["a", "b"]]);
    expect([...stored.keys()].sort()).toEqual([contentHash("a"), contentHash("b"), contentHash("cached")].sort());
    await vectorsOf(["b", "cached", "a"]);
    expect(sent).toHaveLength(1);
  });
});
