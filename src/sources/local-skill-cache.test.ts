import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { createLocalSkillCache, sameEntries, statStamp, type CachedSkill } from "./local-skill-cache.js";

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

describe("sameEntries", () => {
  it("compares folders and entry objects by identity", () => {
    const a = entry("/s/a/SKILL.md");
    const b = entry("/s/b/SKILL.md");
    expect(
      sameEntries(
        new Map([
          ["/s/a", a],
          ["/s/b", b],
        ]),
        new Map([
          ["/s/b", b],
          ["/s/a", a],
        ]),
      ),
    ).toBe(true);
    expect(sameEntries(new Map([["/s/a", a]]), new Map([["/s/a", entry("/s/a/SKILL.md")]]))).toBe(false);
    expect(
      sameEntries(
        new Map([["/s/a", a]]),
        new Map([
          ["/s/a", a],
          ["/s/b", b],
        ]),
      ),
    ).toBe(false);
    expect(sameEntries(new Map([["/s/a", a]]), new Map([["/s/b", a]]))).toBe(false);
    expect(sameEntries(new Map(), new Map())).toBe(true);
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
    expect(
      sameEntries(
        cache,
        new Map([
          ["/s/a", a],
          ["/s/b", b],
          ["/s/c", c],
        ]),
      ),
    ).toBe(true);
    expect(
      sameEntries(
        new Map([
          ["/s/a", a],
          ["/s/b", b],
          ["/s/c", entry("/s/c/SKILL.md")],
        ]),
        cache,
      ),
    ).toBe(false);
  });
});
