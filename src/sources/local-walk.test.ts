import { existsSync, mkdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { walkLocalFolders, type LocalWalkOptions } from "./local-walk.js";
import type { TimeSlice } from "../core/time-slice.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

// root: a (skill), b/c (skill), b/d/e (skill), f/g (skill), skipped folders with skills, a file.
function library() {
  const tree = tempTree();
  trees.push(tree);
  for (const path of ["a", "b/c", "b/d/e", "f/g", "node_modules/x", ".git/y", ".hg/h", ".svn/s", "__pycache__/p"])
    tree.skill(path);
  tree.write("z.txt", "not a folder");
  return realpathSync(tree.root);
}

const neverDue: TimeSlice = { due: () => false, pause: async () => {} };

// A source folder of `count` empty folders with names of `nameLength` characters after a number.
function folderOfEntries(count: number, nameLength: number) {
  const tree = tempTree();
  trees.push(tree);
  const root = realpathSync(tree.root);
  const names = Array.from({ length: count }, (_, at) => `${String(at).padStart(4, "0")}-${"x".repeat(nameLength)}`);
  for (const name of names) mkdirSync(join(root, name));
  return { tree, root, names, size: statSync(root).size };
}

/**
 * Walks with a `readSkillAt` that takes a folder holding a SKILL.md for a skill; returns what
 * was offered (with real paths in `real` where they differ), walked, warned and skipped.
 */
async function walk(options: Partial<LocalWalkOptions> & { root: string }, slice = neverDue) {
  const offered: string[] = [];
  const real: Record<string, string> = {};
  const warnings: string[][] = [];
  const skipped: string[][] = [];
  // A folder announced to readAhead must be the one offered next.
  let announced: string | undefined;
  const misannounced: string[] = [];
  const walked = await walkLocalFolders(
    {
      realRoot: options.root,
      recursive: false,
      maxDepth: 6,
      maxDirectories: 10_000,
      allowedRoots: [options.root],
      readAhead: (folders, at) => (announced = folders[at]),
      readSkillAt: (directory, realDirectory) => {
        if (announced !== undefined && announced !== directory) misannounced.push(directory);
        announced = undefined;
        offered.push(directory);
        if (realDirectory !== directory) real[directory] = realDirectory;
        return existsSync(join(directory, "SKILL.md"));
      },
      warn: (file, code, message) => warnings.push([file, code, message]),
      skip: (file, code, message) => skipped.push([file, code, message]),
      ...options,
    },
    slice,
  );
  return {
    offered,
    walked,
    warnings,
    ...(skipped.length > 0 ? { skipped } : {}),
    ...(Object.keys(real).length > 0 ? { real } : {}),
    ...(misannounced.length > 0 ? { misannounced } : {}),
  };
}

describe("walkLocalFolders", () => {
  it("offers only the root's children when not recursive, in name order, leaving out skipped folders and files", async () => {
    const root = library();
    expect(await walk({ root })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/f`],
      walked: [root],
      warnings: [],
    });
  });

  it("enters every folder that is no skill folder when recursive, depth-first in name order", async () => {
    const root = library();
    expect(await walk({ root, recursive: true })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/b/d/e`, `${root}/f`, `${root}/f/g`],
      walked: [root, `${root}/b`, `${root}/b/d`, `${root}/f`],
      warnings: [],
    });
  });

  it("announces the first folder of each list, and each after a skill folder, for reading ahead", async () => {
    const root = library();
    const announced: string[] = [];
    const readAhead = (folders: readonly string[], at: number) => void announced.push(folders[at]!);
    expect((await walk({ root, recursive: true, readAhead })).offered).toHaveLength(7);
    // Not f: b before it held skills deeper, and a list of such folders is not read in runs.
    expect(announced).toEqual([`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/b/d/e`, `${root}/f/g`]);
  });

  it("enters no folder at maxDepth or below (the root is level 0), and says which folders holding folders it left out", async () => {
    const root = library();
    expect(await walk({ root, recursive: true, maxDepth: 2 })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/b/c`, `${root}/b/d`, `${root}/f`, `${root}/f/g`],
      walked: [root, `${root}/b`, `${root}/f`],
      warnings: [
        [
          root,
          "depth-limit",
          `Stopped scanning ${root} at depth 2: the folders below ${root}/b/d were not searched; skills there may be missing`,
        ],
      ],
    });
    expect(await walk({ root, recursive: true, maxDepth: 1 })).toEqual({
      offered: [`${root}/a`, `${root}/b`, `${root}/f`],
      walked: [root],
      warnings: [
        [
          root,
          "depth-limit",
          `Stopped scanning ${root} at depth 1: the folders below ${root}/b and 1 other folder were not searched; skills there may be missing`,
        ],
      ],
    });
    // A folder at the limit that holds only files hides nothing: no warning.
    expect((await walk({ root, recursive: true, maxDepth: 3 })).warnings).toEqual([]);
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

  it("follows symlinked folders inside the allowed roots once, and skips others naming why", async () => {
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
    symlinkSync("cycle-b", join(root, "cycle-a"));
    symlinkSync("cycle-a", join(root, "cycle-b"));
    expect(await walk({ root, recursive: true })).toEqual({
      offered: [`${root}/b`, `${root}/b/c`, `${root}/in`, `${root}/loop`],
      walked: [root, `${root}/b`],
      warnings: [],
      skipped: [
        [
          `${root}/cycle-a`,
          "symlink-loop",
          `${root}/cycle-a is a symbolic link that leads back to itself (a loop); skipped`,
        ],
        [
          `${root}/cycle-b`,
          "symlink-loop",
          `${root}/cycle-b is a symbolic link that leads back to itself (a loop); skipped`,
        ],
        [
          `${root}/dangling`,
          "symlink-dangling",
          `${root}/dangling is a symbolic link whose target does not exist (it points to ${base}/missing); skipped`,
        ],
        [
          `${root}/out`,
          "symlink-escape",
          `${root}/out is a symbolic link to ${base}/skills-evil, outside the allowed folders; skipped`,
        ],
      ],
      // Offered under the link's path, with the real folder it leads to.
      real: { [`${root}/in`]: `${root}/b`, [`${root}/loop`]: root },
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

  // A source folder is listed at once up to 512 KiB, in the thread pool up to 1 MiB (two pauses
  // then let timers run), in a worker above it (the next test).
  const listings = [
    {
      title: "of 128 to 512 KiB at once, with no pause",
      entries: 1500,
      nameLength: 120,
      over: 128,
      upTo: 512,
      pauses: 0,
    },
    {
      title: "of 512 KiB to 1 MiB off the event loop, then lets timers run before going through it",
      entries: 2000,
      nameLength: 240,
      over: 512,
      upTo: 1024,
      pauses: 2,
    },
  ];
  for (const { title, entries, nameLength, over, upTo, pauses } of listings)
    it(`lists a source folder ${title}`, async (context) => {
      const { root, names, size } = folderOfEntries(entries, nameLength);
      // The folder's size stands for its entries on ext4 and most file systems, not on all (tmpfs).
      if (size <= over * 1024 || size > upTo * 1024) context.skip();
      let paused = 0;
      const slice: TimeSlice = { due: () => false, pause: async () => void paused++ };
      expect(await walk({ root }, slice)).toEqual({
        offered: names.map((name) => `${root}/${name}`),
        walked: [root],
        warnings: [],
      });
      expect(paused).toBe(pauses);
    });

  it("lists a source folder over 1 MiB in a worker thread, and finds the same", async (context) => {
    const { tree, root, names } = folderOfEntries(4400, 240);
    symlinkSync(`${root}/0000-${"x".repeat(240)}`, join(root, "in"));
    symlinkSync(tree.root.slice(0, tree.root.lastIndexOf("/")), join(root, "out"));
    if (statSync(root).size <= 1024 * 1024) context.skip();
    let workers = 0;
    const counted = () => void workers++;
    process.on("worker", counted);
    try {
      const found = await walk({ root });
      expect(workers).toBe(1);
      expect(found.offered).toEqual([...names.map((name) => `${root}/${name}`), `${root}/in`]);
      expect(found.real).toEqual({ [`${root}/in`]: `${root}/0000-${"x".repeat(240)}` });
      expect(found.skipped?.map(([file, code]) => [file, code])).toEqual([[`${root}/out`, "symlink-escape"]]);
    } finally {
      process.off("worker", counted);
    }
  });

  it("pauses within a folder of many entries too, and finds the same", async () => {
    const tree = tempTree();
    trees.push(tree);
    const names = Array.from({ length: 600 }, (_, at) => `f${String(at).padStart(3, "0")}`);
    for (const name of names) tree.write(`${name}/notes.md`, "");
    const root = realpathSync(tree.root);
    const offered: string[] = [];
    const pausedAt: number[] = [];
    let dueCalls = 0;
    const slice: TimeSlice = { due: () => ++dueCalls % 2 === 0, pause: async () => void pausedAt.push(offered.length) };
    const readSkillAt = (directory: string) => (offered.push(directory), false);
    expect(await walk({ root, readSkillAt }, slice)).toEqual({ offered: [], walked: [root], warnings: [] });
    expect(offered).toEqual(names.map((name) => `${root}/${name}`));
    // Before the first folder is offered: checking the entries' order, then keeping the folders.
    expect(pausedAt.filter((count) => count === 0)).toHaveLength(2);
  });
});
