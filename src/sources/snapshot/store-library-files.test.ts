import { InMemoryStore, type BaseStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend } from "deepagents";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TEST_PG_URL, usePostgres } from "../../../test/helpers/test-environment.js";
import type { SkillsBackend } from "../skills-backend.js";
import { createSnapshotSource } from "./snapshot-source.js";
import { storeLibraryFiles } from "./store-library-files.js";

const LIBRARY = ["library"];
const SNAPSHOTS = ["skillset", "snapshots"];
const skillText = (name: string, description = `Use ${name} for ${name} tasks.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const STAMP = "2026-01-01T00:00:00.000Z";
const file = (content: unknown) => ({ content, created_at: STAMP, modified_at: STAMP });

// Files of every shape deepagents' StoreBackend reads, and some it skips: nested skills, dot
// folders, spaces and non-ASCII in names, doubled slashes, a file named like a folder, text of
// both FileData versions, bytes, values that are no files, files beside and outside the root.
const AWKWARD: Record<string, unknown> = {
  "/skills/alpha/SKILL.md": file(skillText("alpha")),
  "/skills/alpha/scripts/run.py": file("print('alpha')\n"),
  "/skills/alpha/.hidden/notes.md": file("dot folders are listed too\n"),
  "/skills/alpha/inner/SKILL.md": file(skillText("inner")),
  "/skills/alpha/inner/ref.md": file("nested\n"),
  "/skills/beta/SKILL.md": file(["---", "name: beta", "description: Written as lines, FileData v1.", "---", ""]),
  "/skills/beta/big file é.txt": file("ü".repeat(40)),
  "/skills/beta/notes.txt": file(["lines of", "FileData v1"]),
  "/skills/beta/data.bin": file(new Uint8Array([0, 1, 2, 255])),
  "/skills/beta/dir/": file("a file whose name ends in a slash\n"),
  "/skills/gamma//SKILL.md": file(skillText("gamma")),
  "/skills/gamma/broken.md": { content: "no timestamps" },
  "/skills/délta/SKILL.md": file(skillText("délta", "Unicode folder, name matching.")),
  "/skills/no-description/SKILL.md": file("---\nname: no-description\n---\n"),
  "/skills/README.md": file("beside the skills\n"),
  "/skills/not-a-file/SKILL.md": { content: 42, created_at: STAMP, modified_at: STAMP },
  "/other/elsewhere/SKILL.md": file(skillText("elsewhere")),
};

async function fill(store: BaseStore, files: Record<string, unknown>, namespace = LIBRARY) {
  for (const [key, value] of Object.entries(files)) await store.put(namespace, key, value as Record<string, unknown>);
}

// The backend as any backend: its glob and downloadFiles, nothing that tells it reads a store.
function plainBackend(backend: StoreBackend): SkillsBackend {
  return {
    glob: (pattern, path) => backend.glob(pattern, path),
    ls: (path) => backend.ls(path),
    downloadFiles: (paths) => backend.downloadFiles(paths),
  };
}

// The snapshot written by a full refresh, its head and what a worker lists, with the backend as
// given (a StoreBackend over `store`: the scan reads the store) or hidden behind plainBackend.
async function refreshed(store: BaseStore, through: "store" | "backend") {
  const backend = new StoreBackend({ store, namespace: LIBRARY });
  const glob = vi.spyOn(backend, "glob");
  const source = createSnapshotSource({
    backend: through === "store" ? backend : plainBackend(backend),
    path: "/skills/",
    recursive: true,
    store,
  });
  const { generation, skills } = await source.refresh();
  const scan = await source.scan();
  const listings = await Promise.all(
    scan.skills.map((skill) => source.listFiles(skill, { maxDepth: 6, maxFiles: 1000 })),
  );
  const stored = (await store.get(SNAPSHOTS, `backend:/skills/@${generation}`))?.value;
  await store.delete(SNAPSHOTS, "backend:/skills/");
  return { generation, skills, scan, listings, content: stored?.content, globs: glob.mock.calls.length };
}

// Both ways give the same snapshot, and the store's way did not ask the backend to glob.
async function expectSameSnapshot(store: BaseStore, { fast = true } = {}) {
  const viaStore = await refreshed(store, "store");
  const viaBackend = await refreshed(store, "backend");
  expect(viaStore.content).toBe(viaBackend.content);
  expect(viaStore.generation).toBe(viaBackend.generation);
  expect(viaStore.scan).toEqual(viaBackend.scan);
  expect(viaStore.listings).toEqual(viaBackend.listings);
  expect(viaStore.globs).toBe(fast ? 0 : 1);
  return viaStore;
}

describe("a full scan through the snapshot's store", () => {
  it("gives the snapshot the backend gives, for every kind of file the backend reads or skips", async () => {
    const store = new InMemoryStore();
    await fill(store, AWKWARD);
    // Elsewhere in the store: a deeper namespace and another one, outside the root.
    await fill(store, { "/x/SKILL.md": file(skillText("x")) }, ["library", "team"]);
    await fill(store, { "/skills/zeta/SKILL.md": file(skillText("zeta")) }, ["skillset-other"]);
    const { scan, skills } = await expectSameSnapshot(store);
    expect(skills).toBe(5);
    expect(scan.skills.map((skill) => skill.name).sort()).toEqual(["alpha", "beta", "délta", "gamma", "inner"]);
  });

  it("refreshes some paths as a full scan would see them, listing their files from one read of the store", async () => {
    const paths = ["/skills/alpha/SKILL.md", "/skills/beta/SKILL.md", "/skills/new/SKILL.md", "/skills/délta/SKILL.md"];
    const changed = async (files: Record<string, unknown>) => {
      const store = new InMemoryStore();
      await fill(store, files);
      return store;
    };
    const change = async (store: BaseStore) => {
      await fill(store, {
        "/skills/alpha/scripts/more.py": file("print('more')\n"),
        "/skills/beta/SKILL.md": file(skillText("beta", "Now written as one text.")),
        "/skills/new/SKILL.md": file(skillText("new")),
        "/skills/new/refs/a.md": file("a\n"),
      });
      await store.delete(LIBRARY, "/skills/délta/SKILL.md");
    };
    // Refreshed path by path through the backend as given (or hidden), then what a worker lists.
    const refreshPaths = async (files: Record<string, unknown>, through: "store" | "backend") => {
      const store = await changed(files);
      const backend = new StoreBackend({ store, namespace: LIBRARY });
      const options = { path: "/skills/", recursive: true, store };
      const source = createSnapshotSource({
        ...options,
        backend: through === "store" ? backend : plainBackend(backend),
      });
      await source.refresh();
      await change(store);
      const ls = vi.spyOn(backend, "ls");
      await source.refresh(paths);
      const scan = await source.scan();
      const limits = { maxDepth: 6, maxFiles: 1000 };
      return {
        store,
        skills: scan.skills,
        names: scan.skills.map((skill) => skill.name).sort(),
        listings: await Promise.all(scan.skills.map((skill) => source.listFiles(skill, limits))),
        lists: ls.mock.calls.length,
      };
    };
    // The catalog served, the snapshot with the paths' corrections over it, is the one a full scan
    // of the changed library gives.
    const viaStore = await refreshPaths(AWKWARD, "store");
    expect(viaStore.lists).toBe(0);
    expect(viaStore.names).toEqual(["alpha", "beta", "gamma", "inner", "new"]);
    await viaStore.store.delete(SNAPSHOTS, "backend:/skills/");
    const full = await refreshed(viaStore.store, "store");
    expect(viaStore.skills).toEqual(full.scan.skills);
    expect(viaStore.listings).toEqual(full.listings);
    // A worker lists the same files as when the backend listed them, but for a key that ends in a
    // slash: the backend's listing of its folder stops there, a full scan leaves it out.
    const { "/skills/beta/dir/": _folderLike, ...plain } = AWKWARD;
    const [store, backend] = [await refreshPaths(plain, "store"), await refreshPaths(plain, "backend")];
    expect(store.listings).toEqual(backend.listings);
    expect(store.names).toEqual(backend.names);
    expect(backend.lists).toBeGreaterThan(0);
  });

  it.each([
    ["a key with a line break", "/skills/odd\nname/SKILL.md"],
    ["a key with a `..` part", "/skills/alpha/../sneaky/SKILL.md"],
    ["a key with a `.` part", "/skills/./dot/SKILL.md"],
    ["a key that is the root", "/skills/"],
    ["a key that is the root and a slash", "/skills//"],
  ])("leaves the scan to the backend for %s, which its glob treats its own way", async (_, key) => {
    const store = new InMemoryStore();
    await fill(store, { ...AWKWARD, [key]: file(skillText("odd")) });
    await expectSameSnapshot(store, { fast: false });
  });

  it("leaves it to the backend for a file below the root in a deeper namespace (the backend reads its own only)", async () => {
    const store = new InMemoryStore();
    await fill(store, AWKWARD);
    await fill(store, { "/skills/shadow/SKILL.md": file(skillText("shadow")) }, ["library", "nested"]);
    await expectSameSnapshot(store, { fast: false });
  });

  it("reads nothing itself when the backend reads another store, or is no StoreBackend", async () => {
    const store = new InMemoryStore();
    const other = new InMemoryStore();
    await fill(other, AWKWARD);
    const search = vi.spyOn(store, "search");
    expect(await storeLibraryFiles(new StoreBackend({ store: other, namespace: LIBRARY }), store, "/skills/")).toBe(
      undefined,
    );
    expect(
      await storeLibraryFiles(plainBackend(new StoreBackend({ store, namespace: LIBRARY })), store, "/skills/"),
    ).toBe(undefined);
    expect(search).not.toHaveBeenCalled();
  });

  it("reads the namespace again when the pages do not meet (a write moved the order), three times, then in one query", async () => {
    const store = new InMemoryStore();
    await fill(store, AWKWARD);
    const backend = new StoreBackend({ store, namespace: LIBRARY });
    const expected = await storeLibraryFiles(backend, store, "/skills/", 3);
    expect(expected?.files.length).toBeGreaterThan(6);
    const search = store.search.bind(store);
    let shifts = 1;
    // The second page (asked from the first page's last item, offset 2) starts one item early, as
    // after a write that moved an item to the front.
    vi.spyOn(store, "search").mockImplementation((namespace, options) =>
      search(namespace, options?.offset === 2 && shifts-- > 0 ? { ...options, offset: 1 } : options),
    );
    expect(await storeLibraryFiles(backend, store, "/skills/", 3)).toEqual(expected);
    shifts = Infinity;
    // Pages that never meet: the namespace in one query (asked from offset 0, which the mock leaves be).
    expect(await storeLibraryFiles(backend, store, "/skills/", 3)).toEqual(expected);
    // 17 items, 3 a page: a read that meets the moved item stops at its second page; a whole one
    // takes six. Once moved then whole (8), then moved three times (6) and one query (1).
    expect(store.search).toHaveBeenCalledTimes(15);
    expect(vi.mocked(store.search).mock.calls.at(-1)![1]).toEqual({ limit: Number.MAX_SAFE_INTEGER, offset: 0 });
  });

  it("skips no item when one before its page is deleted meanwhile: it reads the namespace again", async () => {
    const store = new InMemoryStore();
    await fill(store, AWKWARD);
    const backend = new StoreBackend({ store, namespace: LIBRARY });
    const search = store.search.bind(store);
    let deleted = false;
    let calls = 0;
    // Between the first and the second page, another worker deletes the first page's first item.
    vi.spyOn(store, "search").mockImplementation(async (namespace, options) => {
      if (++calls === 2) {
        deleted = true;
        await store.delete(LIBRARY, "/skills/alpha/SKILL.md");
      }
      return search(namespace, options);
    });
    const read = await storeLibraryFiles(backend, store, "/skills/", 3);
    vi.mocked(store.search).mockRestore();
    expect(deleted).toBe(true);
    const after = await storeLibraryFiles(backend, store, "/skills/", 3);
    expect(after!.files.map((entry) => entry.path)).not.toContain("/skills/alpha/SKILL.md");
    expect(after!.files).toHaveLength(13);
    expect(read).toEqual(after);
  });

  it("gives the backend's snapshot for random libraries (seeded)", async () => {
    const part = fc.constantFrom("a", "b", "skill-one", "Ünï", "with space", ".dot", "x.y", "", "SKILL.md", "ref.md");
    const path = fc
      .array(part, { minLength: 1, maxLength: 4 })
      .map((parts) => `/skills/${parts.join("/")}`)
      .filter((key) => key !== "/skills/" && key !== "/skills//");
    const content = fc.oneof(
      fc.constantFrom("a", "b", "c").map((name) => skillText(name)),
      fc.string({ maxLength: 20 }),
      fc.constant(["---", "name: lines", "description: v1", "---"]),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(path, content, { maxKeys: 12 }), async (files) => {
        const store = new InMemoryStore();
        await fill(store, Object.fromEntries(Object.entries(files).map(([key, text]) => [key, file(text)])));
        await expectSameSnapshot(store);
      }),
      { numRuns: 60, seed: 36 },
    );
  }, 120_000);
});

const SCHEMA = `skillset_store_scan_${process.pid}_${Date.now().toString(36)}`;

describe.skipIf(!(await usePostgres()))("a full scan through the snapshot's store, on PostgreSQL", () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = PostgresStore.fromConnString(TEST_PG_URL, { schema: SCHEMA });
    await store.setup();
  });
  afterAll(async () => {
    await store?.stop();
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    await client.end();
  });

  it("gives the snapshot the backend gives, and the same files read in pages of any size", async () => {
    const many: Record<string, unknown> = {};
    for (let index = 0; index < 2500; index++) {
      const name = `skill-${String(index).padStart(4, "0")}`;
      many[`/skills/${name}/SKILL.md`] = file(skillText(name));
      if (index % 5 === 0) many[`/skills/${name}/scripts/run.py`] = file(`print(${index})\n`);
    }
    const { "/skills/beta/data.bin": _bytes, ...jsonable } = AWKWARD;
    await store.batch(
      Object.entries({ ...jsonable, ...many }).map(([key, value]) => ({
        namespace: LIBRARY,
        key,
        value: value as Record<string, unknown>,
      })),
    );
    // PostgreSQL lists namespaces by their name's start: "library-2" comes with "library".
    await fill(store, { "/elsewhere/SKILL.md": file(skillText("elsewhere")) }, ["library-2"]);
    const { skills } = await expectSameSnapshot(store);
    expect(skills).toBe(2505);
    const backend = new StoreBackend({ store, namespace: LIBRARY });
    const whole = await storeLibraryFiles(backend, store, "/skills/");
    expect(whole?.files).toHaveLength(2500 + 500 + 13);
    // Pages in PostgreSQL's order (newest first), 700 a query: the same files and contents.
    const paged = await storeLibraryFiles(backend, store, "/skills/", 700);
    const byPath = (files: { path: string }[]) => [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(byPath(paged!.files)).toEqual(byPath(whole!.files));
    expect(paged!.contents).toEqual(whole!.contents);
  });

  it("reads a namespace whose items were all written by one statement (PostgreSQL orders their ties anew for each page)", async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    // One statement: every item has the same created_at, the only key PostgresStore sorts by.
    await client.query(
      `INSERT INTO "${SCHEMA}".store (namespace_path, key, value)
       SELECT 'tied', '/skills/s-' || lpad(i::text, 5, '0') || '/SKILL.md',
              jsonb_build_object('content', 'skill ' || i, 'created_at', $1::text, 'modified_at', $1::text)
       FROM generate_series(1, 6000) AS i`,
      [STAMP],
    );
    await client.end();
    const backend = new StoreBackend({ store, namespace: ["tied"] });
    const read = await storeLibraryFiles(backend, store, "/skills/", 700);
    expect(read?.files).toHaveLength(6000);
    expect(new Set(read!.files.map((entry) => entry.path)).size).toBe(6000);
    expect(new TextDecoder().decode(read!.contents.get("/skills/s-01234/SKILL.md"))).toBe("skill 1234");
  });

  it("leaves the scan to the backend when another namespace that starts like it has a file below the root", async () => {
    await fill(store, { "/skills/intruder/SKILL.md": file(skillText("intruder")) }, ["library-2"]);
    await expectSameSnapshot(store, { fast: false });
  });
});
