import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { createLocalSkillCache, statStamp, type CachedSkill } from "./local-skill-cache.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

const entry = (file: string): CachedSkill => ({ stamp: "", file, text: "", diagnostics: [] });

describe("statStamp", () => {
  it("is mtime:size:inode, or undefined for a missing file", () => {
    const tree = tempTree();
    trees.push(tree);
    const file = tree.write("one/SKILL.md", "12345");
    const stat = statSync(file);
    expect(statStamp(file)).toBe(`${stat.mtimeMs}:5:${stat.ino}`);
    expect(statStamp(join(tree.root, "missing"))).toBeUndefined();
    expect(statStamp(join(file, "below-a-file"))).toBeUndefined();
  });
});

describe("createLocalSkillCache", () => {
  it("keeps the folders in the order added and finds each, also one added after the first lookup", () => {
    const a = entry("/s/a/SKILL.md");
    const b = entry("/s/b/SKILL.md");
    const c = entry("/s/c/SKILL.md");
    const cache = createLocalSkillCache();
    cache.add("/s/b", b);
    cache.add("/s/a", a);
    expect(cache.get("/s/a")).toBe(a);
    cache.add("/s/c", c);
    expect([cache.get("/s/b"), cache.get("/s/c"), cache.get("/s/missing")]).toEqual([b, c, undefined]);
    expect(cache.size).toBe(3);
    expect([...cache]).toEqual([
      ["/s/b", b],
      ["/s/a", a],
      ["/s/c", c],
    ]);
    expect(cache.directories).toEqual(["/s/b", "/s/a", "/s/c"]);
  });

  it("builds its index by folder in slices, pausing when due, and then finds every folder", async () => {
    const cache = createLocalSkillCache();
    const entries = Array.from({ length: 1000 }, (_, at) => entry(`/s/${at}/SKILL.md`));
    entries.forEach((value, at) => cache.add(`/s/${at}`, value));
    let asked = 0;
    let pauses = 0;
    await cache.indexInSlices({ due: () => ++asked % 2 === 0, pause: async () => void pauses++ });
    // The clock is asked every 256 folders.
    expect([asked, pauses]).toEqual([3, 1]);
    entries.forEach((value, at) => expect(cache.get(`/s/${at}`)).toBe(value));
    expect(cache.get("/s/1000")).toBeUndefined();
  });
});
