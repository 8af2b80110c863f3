import { realpathSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { linkTarget, realOrResolved } from "./link-target.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

function folders() {
  const tree = tempTree();
  trees.push(tree);
  const base = realpathSync(tree.root);
  tree.write("skills/one/SKILL.md", "---\nname: one\ndescription: One.\n---\n");
  return { base, skills: join(base, "skills") };
}

describe("realOrResolved", () => {
  it("resolves symlinks, and makes a missing or relative path absolute", () => {
    const { base, skills } = folders();
    symlinkSync(skills, join(base, "link"));
    expect(realOrResolved(join(base, "link"))).toBe(skills);
    expect(realOrResolved(join(base, "link", "one"))).toBe(join(skills, "one"));
    expect(realOrResolved(join(base, "missing", "..", "skills"))).toBe(skills);
    expect(realOrResolved(join(base, "missing"))).toBe(join(base, "missing"));
    expect(realOrResolved("relative/missing")).toBe(resolve("relative/missing"));
  });
});

describe("linkTarget", () => {
  it("names a dangling link, a loop, and returns the real target of a link that resolves", () => {
    const { base, skills } = folders();
    symlinkSync("gone/SKILL.md", join(base, "dangling"));
    symlinkSync("loop-b", join(base, "loop-a"));
    symlinkSync("loop-a", join(base, "loop-b"));
    symlinkSync("skills/one", join(base, "good"));
    expect(linkTarget(join(base, "good"))).toBe(join(skills, "one"));
    expect(() => linkTarget(join(base, "dangling"))).toThrow(
      expect.objectContaining({
        code: "symlink-dangling",
        message: `${join(base, "dangling")} is a symbolic link whose target does not exist (it points to gone/SKILL.md)`,
      }),
    );
    expect(() => linkTarget(join(base, "loop-a"))).toThrow(
      expect.objectContaining({
        code: "symlink-loop",
        message: `${join(base, "loop-a")} is a symbolic link that leads back to itself (a loop)`,
      }),
    );
  });
});
