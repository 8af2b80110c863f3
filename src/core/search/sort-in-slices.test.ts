import { describe, expect, it } from "vitest";
import { sortInSlices } from "./sort-in-slices.js";

describe("sortInSlices", () => {
  it("sorts as Array.prototype.sort() does, pausing whenever due (property, seed 41)", async () => {
    let seed = 41;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    // Few characters, so strings share their first code units and one is often another's prefix.
    const characters = ["a", "b", "z", "0", "9", "é", "\u{1f600}", "-"];
    const string = () =>
      Array.from({ length: Math.floor(random() * 5) }, () => characters[Math.floor(random() * characters.length)]).join(
        "",
      );
    let pauses = 0;
    for (let round = 0; round < 200; round++) {
      const strings = Array.from({ length: Math.floor(random() * 60) }, string);
      const sorted = await sortInSlices(
        strings,
        () => random() < 0.3,
        async () => void pauses++,
      );
      expect(sorted).toEqual([...strings].sort());
    }
    expect(pauses).toBeGreaterThan(100);
  });
});
