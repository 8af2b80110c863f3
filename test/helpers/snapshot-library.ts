// A skill library in a LangGraph store, as deepagents' StoreBackend writes files, and workers
// reading it through a snapshot source: what the snapshot tests share (in memory and on
// PostgreSQL). `gatedStore` lets a test stop a worker at one store call of its choosing, so an
// interleaving of writers and readers is forced rather than hoped for.
import type { BaseStore } from "@langchain/langgraph";
import { StoreBackend } from "deepagents";
import type { SkillsBackend } from "../../src/sources/skills-backend.js";
import { createSnapshotSource } from "../../src/sources/snapshot/snapshot-source.js";
import type { SnapshotSourceOptions } from "../../src/sources/snapshot/snapshot-source-options.js";
import type { SnapshotStore } from "../../src/sources/snapshot/snapshot-store.js";

export const LIBRARY = ["library"];
export const SNAPSHOTS = ["skillset", "snapshots"];
export const HEAD = "backend:/skills/";

export const skillText = (name: string, description = `Use ${name} for ${name} tasks.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

export async function writeFile(store: BaseStore, path: string, content: string) {
  const now = new Date().toISOString();
  await store.put(LIBRARY, path, { content, created_at: now, modified_at: now });
}

// The backend, counting its listings and reads, so a test can say a join read no library.
export function countingBackend(store: BaseStore) {
  const backend = new StoreBackend({ store, namespace: LIBRARY });
  const calls = { glob: 0, ls: 0, downloadFiles: 0 };
  const counted: SkillsBackend = {
    glob: (pattern, path) => (calls.glob++, backend.glob(pattern, path)),
    ls: (path) => (calls.ls++, backend.ls(path)),
    downloadFiles: (paths) => (calls.downloadFiles++, backend.downloadFiles(paths)),
  };
  return { backend: counted, calls };
}

/** A worker: a snapshot source over `library`, keeping its snapshot in `options.store` (`library` by default). */
export function snapshotWorker(library: BaseStore, options: Partial<SnapshotSourceOptions> = {}) {
  const { backend, calls } = countingBackend(library);
  const source = createSnapshotSource({
    backend,
    path: "/skills/",
    recursive: true,
    store: library,
    storeName: "test-store",
    ...options,
  });
  return { source, calls };
}

/** One call a snapshot source makes of its store. */
export interface StoreCall {
  method: "get" | "put" | "delete" | "search";
  namespace: string[];
  key?: string;
}

/** `store`, each call of which first waits for what `gate` returns. */
export function gatedStore(store: BaseStore, gate: (call: StoreCall) => Promise<void> | void): SnapshotStore {
  return {
    get: async (namespace, key) => (await gate({ method: "get", namespace, key }), store.get(namespace, key)),
    put: async (namespace, key, value) => (
      await gate({ method: "put", namespace, key }),
      store.put(namespace, key, value)
    ),
    delete: async (namespace, key) => (await gate({ method: "delete", namespace, key }), store.delete(namespace, key)),
    search: async (namespace, options) => (
      await gate({ method: "search", namespace }),
      store.search(namespace, options)
    ),
  };
}

/** A point a call stops at: `reached` once it is there, and it goes on at `release()`. */
export function pausePoint() {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { reached, release, wait: () => (arrive(), released) };
}

/** The first `parties` calls to `wait()` each wait until all of them have arrived; later calls pass. */
export function barrier(parties: number) {
  let waiting = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait(): Promise<void> {
      if (waiting >= parties) return Promise.resolve();
      if (++waiting === parties) open();
      return opened;
    },
  };
}

export const isSnapshotCall = (call: StoreCall) => call.namespace[0] === SNAPSHOTS[0];
/** A call on the head item itself (the namespaces below it may use the same key). */
export const isHeadCall = (call: StoreCall, method: StoreCall["method"]) =>
  call.method === method && call.key === HEAD && call.namespace.join("/") === SNAPSHOTS.join("/");
export const isBodyKey = (key: string | undefined) => key?.startsWith(`${HEAD}@`) === true;

/** The keys of `namespace` itself (not those below it) in `store`. */
export async function keysIn(store: BaseStore, namespace: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await store.search(namespace, { limit: 1000, offset });
    for (const item of page) if (item.namespace.join("\u0000") === namespace.join("\u0000")) keys.push(item.key);
    if (page.length < 1000) return keys.sort();
  }
}

/** The snapshot bodies kept for the default source, by generation. */
export async function storedGenerations(store: BaseStore): Promise<string[]> {
  return (await keysIn(store, SNAPSHOTS)).filter(isBodyKey).map((key) => key.slice(HEAD.length + 1));
}

export async function headGeneration(store: BaseStore): Promise<string | undefined> {
  const value = (await store.get(SNAPSHOTS, HEAD))?.value as { generation?: string } | undefined;
  return value?.generation;
}

/**
 * Waits until the clock has moved on by a millisecond. Stores keep times in milliseconds, and
 * writes in the same one cannot be ordered: a test that needs one scan to begin after another
 * (and so be newer) says so with this.
 */
export async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() <= start) await new Promise((resolve) => setTimeout(resolve, 1));
}
