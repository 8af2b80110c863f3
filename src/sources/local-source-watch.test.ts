import type * as fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";

// The system refuses more inotify watches (ENOSPC), as it does past max_user_watches.
const { watch } = vi.hoisted(() => ({
  watch: vi.fn(() => {
    throw Object.assign(new Error("watch limit reached"), { code: "ENOSPC" });
  }),
}));
vi.mock("node:fs", async (importOriginal) => ({ ...(await importOriginal<typeof fs>()), watch }));
const { createLocalSource } = await import("./local-source.js");

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

describe("createLocalSource when folders cannot be watched", () => {
  it("says so once, then compares stamps on every re-scan without trying to watch again", async () => {
    const tree = tempTree();
    trees.push(tree);
    tree.skill("one");
    const source = createLocalSource({ path: tree.root });
    await source.scan();
    const second = await source.scan();
    expect(second.diagnostics).toEqual([
      {
        severity: "info",
        code: "watch-unavailable",
        file: tree.root,
        source: `local:${tree.root}`,
        message: `Cannot watch ${tree.root} (ENOSPC); re-scans compare file stamps instead`,
      },
    ]);
    const attempts = watch.mock.calls.length;
    expect(await source.scan()).toBe(second);
    tree.skill("two");
    const third = await source.scan();
    expect(third.skills.map((skill) => skill.name)).toEqual(["one", "two"]);
    expect(watch.mock.calls.length).toBe(attempts);
  });
});
