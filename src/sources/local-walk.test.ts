import { existsSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { walkLocalFolders, type LocalWalkOptions } from "./local-walk.js";
import type { TimeSlice } from "./time-slice.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

// root: a (skill), b/c (skill), b/d/e (skill), f/g (skill), skipped folders with skills, a file.
function library() {
  const tree = tempTree();
  trees.push(tree);
  for (const path of ["a", "b/c", "b/d/e", "f/g", "node_modules/x", ".git/y", ".hg/h", ".svn/s", "__pycache__/p"]) tree.skill(path);
  tree.write("z.txt", "not a folder");
  return realpathSync(tree.root);
}

const neverDue: TimeSlice = { due: () => false, pause: async () => {} };

/** Walks with a `readSkillAt` that takes a folder holding a SKILL.md for a skill; returns what was offered, walked and warned. */
async function walk(options: Partial<LocalWalkOptions> & { root: string }, slice = neverDue) {
  const offered: string[] = [];
  const warnings: string[][] = [];
  const walked = await walkLocalFolders(
    {
      recursive: false,
      maxDepth: 6,
      maxDirectories: 10_000,
      allowedRoots: [options.root],
      readSkillAt: (directory) => {
        offered.push(directory);
        return existsSync(join(directory, "SKILL.md"));
      },
      warn: (file, code, message) => warnings.push([file, code, message]),
      ...options,
    },
    slice,
  );
  return { offered, walked, warnings };
}

describe("walkLocalFolders", () => {
  it("offers only the root's children when not recursive, in name order, leaving out skipped folders and files", async () => {
    const root = library();
    expect(await walk({ root })).toEqual({ offered: [`${root}/a`, `${root}/b`, `${root}/f`], walked: [root], warnings: [] });
  });

  it("enters every folder that is no skill folder when recursive, depth-first in name order", async () => {
    const root = library();
    expect(await walk({ root, recursive: true })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/b/d/e`, `${root}/f`, `${root}/f/g`],
      walked: [root, `${root}/b`, `${root}/b/d`, `${root}/f`],
      warnings: [],
    });
  });

  it("enters no folder at maxDepth or below (the root is level 0)", async () => {
    const root = library();
    expect(await walk({ root, recursive: true, maxDepth: 2 })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/f`, `${root}/f/g`],
      walked: [root, `${root}/b`, `${root}/f`],
      warnings: [],
    });
    expect((await walk({ root, recursive: true, maxDepth: 1 })).walked).toEqual([root]);
  });

  it("enters at most maxDirectories folders below the root, and says so once", async () => {
    const root = library();
    const warning = [root, "scan-limit", `Stopped scanning ${root} after 1 folders; skills below may be missing`];
    expect(await walk({ root, recursive: true, maxDirectories: 1 })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/f`],
      walked: [root, `${root}/b`],
      warnings: [warning],
    });
    expect(await walk({ root, recursive: true, maxDirectories: 0 })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/f`],
      walked: [root],
      warnings: [[root, "scan-limit", `Stopped scanning ${root} after 0 folders; skills below may be missing`]],
    });
  });

  it("follows symlinked folders inside the allowed roots once, and skips others with a warning", async () => {
    const tree = tempTree();
    trees.push(tree);
    const base = realpathSync(tree.root);
    const root = join(base, "skills");
    tree.skill("skills/b/c");
    tree.skill("skills-evil/bad");
    tree.write("skills/file.txt", "text");
    symlinkSync(join(root, "b"), join(root, "in"));
    symlinkSync(root, join(root, "loop"));
    symlinkSync(join(base, "skills-evil"), join(root, "out"));
    symlinkSync(join(root, "file.txt"), join(root, "file-link"));
    symlinkSync(join(base, "missing"), join(root, "dangling"));
    expect(await walk({ root, recursive: true })).toEqual({
      offered: [`${root}/b`, `${root}/b/c`, `${root}/in`, `${root}/loop`],
      walked: [root, `${root}/b`],
      warnings: [[`${root}/out`, "symlink-escape", `${root}/out is a symbolic link to ${base}/skills-evil, outside the allowed folders; skipped`]],
    });
  });

  it("warns about a folder it cannot list", async () => {
    const tree = tempTree();
    trees.push(tree);
    const missing = join(realpathSync(tree.root), "missing");
    expect(await walk({ root: missing, recursive: true })).toEqual({
      offered: [],
      walked: [missing],
      warnings: [[missing, "unreadable-folder", `Cannot list ${missing}: ENOENT`]],
    });
  });

  it("pauses whenever the slice is due, and finds the same", async () => {
    const root = library();
    let dueCalls = 0;
    let pauses = 0;
    // Due at every second check: one folder per slice.
    const slice: TimeSlice = { due: () => ++dueCalls % 2 === 0, pause: async () => void pauses++ };
    expect(await walk({ root }, slice)).toEqual(await walk({ root }));
    expect(pauses).toBe(3);
  });
});
