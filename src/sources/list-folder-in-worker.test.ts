import { readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { listFolderInWorker } from "./list-folder-in-worker.js";
import type { TimeSlice } from "../core/time-slice.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

const neverDue: TimeSlice = { due: () => false, pause: async () => {} };

type Entry = { name: string; isDirectory(): boolean; isSymbolicLink(): boolean };
const described = (entries: readonly Entry[]) =>
  entries.map((entry) => [entry.name, entry.isDirectory(), entry.isSymbolicLink()]);

describe("listFolderInWorker", () => {
  it("lists a folder as readdirSync does: names in order, folders and links told apart", async () => {
    const tree = tempTree();
    trees.push(tree);
    const root = realpathSync(tree.root);
    for (const path of ["b/SKILL.md", "a b/x", "ü/x", "😀/x", "Z/x", "file.md"]) tree.write(path, "");
    symlinkSync(join(root, "b"), join(root, "link-to-folder"));
    symlinkSync(join(root, "file.md"), join(root, "link-to-file"));
    symlinkSync(join(root, "missing"), join(root, "dangling"));
    const listed = await listFolderInWorker(root, neverDue);
    expect(described(listed!)).toEqual(described(readdirSync(root, { withFileTypes: true })));
    expect(listed!.map((entry) => entry.name)).toEqual([
      "Z",
      "a b",
      "b",
      "dangling",
      "file.md",
      "link-to-file",
      "link-to-folder",
      "ü",
      "😀",
    ]);
  });

  it("lists an empty folder as empty, and a missing one as undefined (the caller reports it)", async () => {
    const tree = tempTree();
    trees.push(tree);
    expect(await listFolderInWorker(tree.root, neverDue)).toEqual([]);
    expect(await listFolderInWorker(join(tree.root, "missing"), neverDue)).toBeUndefined();
  });

  it("makes the entries in slices", async () => {
    const tree = tempTree();
    trees.push(tree);
    for (let at = 0; at < 600; at++) tree.write(`f${at}`, "");
    let pauses = 0;
    const slice: TimeSlice = { due: () => true, pause: async () => void pauses++ };
    expect(await listFolderInWorker(tree.root, slice)).toHaveLength(600);
    // A check every 256 entries.
    expect(pauses).toBe(2);
  });
});
