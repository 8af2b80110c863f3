import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./python-text.js";
import { sortInSlices } from "./sort-in-slices.js";

describe("sortInSlices", () => {
  it("sorts as Array.prototype.sort() does, or by code point, pausing whenever due (property, seed 41)", async () => {
    let seed = 41;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    // Few characters, so strings share their first code units and one is often another's prefix.
    const characters = ["a", "b", "z", "0", "9", "é", "\u{1f600}", "\ue000", "-"];
    const string = () =>
      Array.from({ length: Math.floor(random() * 5) }, () => characters[Math.floor(random() * characters.length)]).join(
        "",
      );
    let pauses = 0;
    for (let round = 0; round < 200; round++) {
      const strings = Array.from({ length: Math.floor(random() * 60) }, string);
      const due = () => random() < 0.3;
      const pause = async () => void pauses++;
      expect(await sortInSlices(strings, due, pause)).toEqual([...strings].sort());
      expect(await sortInSlices(strings, due, pause, "code-points")).toEqual([...strings].sort(compareCodePoints));
    }
    expect(pauses).toBeGreaterThan(200);
  });
});
