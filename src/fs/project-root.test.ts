import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { findProjectRoot } from "./project-root.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

function base(): string {
  const tree = tempTree();
  trees.push(tree);
  return realpathSync(tree.root);
}

describe("findProjectRoot", () => {
  it("finds the nearest folder with .git or package.json, from the folder itself upwards, also from a path that does not exist", () => {
    const root = base();
    const home = join(root, "home");
    mkdirSync(join(root, "work/app/packages/lib/src"), { recursive: true });
    writeFileSync(join(root, "work/app/package.json"), "{}");
    mkdirSync(join(root, "work/repo/.git/objects"), { recursive: true });
    writeFileSync(join(root, "work/app/packages/lib/package.json"), "{}");
    expect(findProjectRoot(join(root, "work/app"), home)).toBe(join(root, "work/app"));
    expect(findProjectRoot(join(root, "work/app/.claude/skills"), home)).toBe(join(root, "work/app"));
    // The nearest one wins, as npm finds a workspace package's own package.json.
    expect(findProjectRoot(join(root, "work/app/packages/lib/src"), home)).toBe(join(root, "work/app/packages/lib"));
    expect(findProjectRoot(join(root, "work/repo/not/yet/created"), home)).toBe(join(root, "work/repo"));
    expect(findProjectRoot(join(root, "work"), home)).toBeUndefined();
  });

  it("never takes the home folder or the file-system root for a project, even with markers there", () => {
    const root = base();
    const home = join(root, "home");
    mkdirSync(join(home, ".git"), { recursive: true });
    writeFileSync(join(home, "package.json"), "{}");
    mkdirSync(join(home, ".agents/skills"), { recursive: true });
    expect(findProjectRoot(join(home, ".agents/skills"), home)).toBeUndefined();
    expect(findProjectRoot(home, home)).toBeUndefined();
    expect(findProjectRoot("/", home)).toBeUndefined();
    writeFileSync(join(home, ".agents/package.json"), "{}");
    expect(findProjectRoot(join(home, ".agents/skills"), home)).toBe(join(home, ".agents"));
  });
});
