import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { sameEntries, statStamp, type CachedSkill } from "./local-skill-cache.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

const entry = (file: string): CachedSkill => ({ stamp: "", file, text: "", result: { diagnostics: [] } });

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
    expect(sameEntries(new Map([["/s/a", a], ["/s/b", b]]), new Map([["/s/b", b], ["/s/a", a]]))).toBe(true);
    expect(sameEntries(new Map([["/s/a", a]]), new Map([["/s/a", entry("/s/a/SKILL.md")]]))).toBe(false);
    expect(sameEntries(new Map([["/s/a", a]]), new Map([["/s/a", a], ["/s/b", b]]))).toBe(false);
    expect(sameEntries(new Map([["/s/a", a]]), new Map([["/s/b", a]]))).toBe(false);
    expect(sameEntries(new Map(), new Map())).toBe(true);
  });
});
