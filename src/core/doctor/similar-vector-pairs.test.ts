import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/generate-library.mjs";
import { dotProduct, unitVector } from "../search/text-vectors.js";
import { similarVectorPairs } from "./similar-vector-pairs.js";

// Every pair compared with dotProduct, as the rival check first did.
function reference(vectors: readonly Float32Array[], similarity: number): Array<[number, number, number]> {
  const pairs: Array<[number, number, number]> = [];
  for (let i = 0; i < vectors.length; i++)
    for (let j = i + 1; j < vectors.length; j++) {
      const product = dotProduct(vectors[i]!, vectors[j]!);
      if (product >= similarity) pairs.push([i, j, product]);
    }
  return pairs;
}

// Unit vectors in clusters (near neighbours of a few centres), with a zero vector, a vector of
// another length (a model that changed its size) and one with a NaN among them.
function vectors(): Float32Array[] {
  const random = seededRandom(5);
  const near = (centre: readonly number[], spread: number) =>
    unitVector(centre.map((value) => value + (random() - 0.5) * spread));
  const centres = Array.from({ length: 12 }, () => Array.from({ length: 67 }, () => random() - 0.5));
  const made = Array.from({ length: 400 }, (_, at) => near(centres[at % centres.length]!, at % 3 === 0 ? 0.05 : 0.8));
  made.splice(
    10,
    0,
    new Float32Array(67),
    near(centres[0]!.slice(0, 40), 0.05),
    unitVector([...centres[1]!.slice(1), NaN]),
  );
  return made;
}

describe("similarVectorPairs", () => {
  it("gives the pairs and products of comparing every pair with dotProduct, also at a threshold a pair meets exactly", () => {
    const all = vectors();
    const products = reference(all, -2).map(([, , product]) => product);
    const exactly = products[Math.floor(products.length / 2)]!;
    const thresholds = [0.85, 0.95, 0.5, exactly, exactly + Number.EPSILON * exactly, exactly - 1e-16, NaN];
    for (const similarity of thresholds) {
      const expected = reference(all, similarity);
      expect([...similarVectorPairs(all, similarity)]).toEqual(expected);
    }
    expect(reference(all, 0.95).length).toBeGreaterThan(100);
    expect(reference(all, exactly).some(([, , product]) => product === exactly)).toBe(true);
  });
});
