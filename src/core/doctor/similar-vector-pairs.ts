// The pairs of a library's description vectors similar enough to be rivals: every pair is
// compared, 5·10⁹ of them at 100,000 skills, so each comparison is first made with four running
// sums, which V8 runs about 1.6 times as fast as the one sum of `dotProduct`. The two differ in
// the last bits only, so a pair the quick sum puts anywhere near the threshold is compared again
// with `dotProduct`, whose value decides and is reported: the same pairs and similarities as
// comparing every pair with `dotProduct`. Comparing in tiles of rows and columns, for the cache,
// was measured too and gained nothing: the sums, not the memory, are the cost.
import { dotProduct } from "../search/text-vectors.js";

/**
 * The pairs `[i, j, similarity]` (i < j, in that order) of `vectors` whose {@link dotProduct} is at
 * least `similarity`, with that product.
 */
export function* similarVectorPairs(
  vectors: readonly Float32Array[],
  similarity: number,
): Generator<[number, number, number]> {
  for (let i = 0; i < vectors.length; i++) {
    const a = vectors[i]!;
    for (let j = i + 1; j < vectors.length; j++) {
      const b = vectors[j]!;
      const length = Math.min(a.length, b.length);
      // Each sum is off by at most `length` roundings of a value no larger than |a|·|b| (about 1,
      // unit vectors): the products themselves are exact, of two float32 numbers in a float64.
      if (!(quickDot(a, b, length) >= similarity - length * 1e-15)) continue;
      const exact = dotProduct(a, b);
      if (exact >= similarity) yield [i, j, exact];
    }
  }
}

function quickDot(a: Float32Array, b: Float32Array, length: number): number {
  let first = 0;
  let second = 0;
  let third = 0;
  let fourth = 0;
  let at = 0;
  for (; at + 3 < length; at += 4) {
    first += a[at]! * b[at]!;
    second += a[at + 1]! * b[at + 1]!;
    third += a[at + 2]! * b[at + 2]!;
    fourth += a[at + 3]! * b[at + 3]!;
  }
  for (; at < length; at++) first += a[at]! * b[at]!;
  return first + second + third + fourth;
}
