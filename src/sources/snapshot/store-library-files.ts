import type { SkillSource } from "../../core/skill-source.js";
import { isContained } from "../backend-source.js";
import type { BackendFileInfo, SkillsBackend } from "../skills-backend.js";
import { filesOfSkills, SNAPSHOT_FILE_LIMITS, snapshotListing } from "./snapshot-files.js";
import { sameNamespace, searchInPages, WHOLE_NAMESPACE } from "./store-search-pages.js";

// deepagents' StoreBackend lists a folder by reading its whole namespace, contents included, 100
// items a query, each query skipping the items before it: at 100,000 skills a full scan took
// minutes, and reading each SKILL.md is one more query per skill. When the snapshot's store is
// the backend's own, the scan reads the namespace itself, once, in pages of 20,000, and takes the
// files and the SKILL.md contents from it: what the backend's `glob("**")` and `downloadFiles`
// would give, item for item (the tests compare both on PostgreSQL and in memory).

/** Every file below a library's root, and the contents of its `SKILL.md` files, by path. */
export interface StoreLibraryFiles {
  files: BackendFileInfo[];
  contents: Map<string, Uint8Array>;
}

/** The part of a LangGraph store (`BaseStore`) the scan lists a namespace with. */
interface SearchableStore {
  search(
    namespace: string[],
    options: { limit: number; offset: number },
  ): Promise<Array<{ namespace: string[]; key: string; value: Record<string, unknown> }>>;
}

/** What the scan needs of deepagents' StoreBackend: the store and namespace it reads. */
interface StoreBackendLike {
  getStore(): unknown;
  getNamespace(): string[];
}

// Larger pages cost PostgreSQL less: each query sorts the namespace again to skip what came before.
const PAGE = 20_000;
const ATTEMPTS = 3;

/**
 * The files below `root` of `backend` read through `store` itself, when `backend` is deepagents'
 * StoreBackend over that very store; `undefined` otherwise, or when the namespace holds anything
 * the backend would read differently (a key its glob would not list, a deeper namespace holding a
 * key below `root`), so the caller asks the backend as before.
 */
export async function storeLibraryFiles(
  backend: SkillsBackend,
  store: unknown,
  root: string,
  pageSize = PAGE,
): Promise<StoreLibraryFiles | undefined> {
  const namespace = storeNamespace(backend, store);
  if (!namespace || !root.startsWith("/") || !root.endsWith("/")) return undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readNamespace(store as SearchableStore, namespace, root, pageSize);
    if (read !== "moved") return read;
  }
  // Pages that never met: the whole namespace in one query (the backend would page it as unreliably).
  const read = await readNamespace(store as SearchableStore, namespace, root, WHOLE_NAMESPACE);
  return read === "moved" ? undefined : read;
}

// The backend's namespace, when it reads `store` (an object the caller gave, compared by identity).
function storeNamespace(backend: SkillsBackend, store: unknown): string[] | undefined {
  const like = backend as Partial<StoreBackendLike>;
  if (typeof like.getStore !== "function" || typeof like.getNamespace !== "function") return undefined;
  if (typeof (store as Partial<SearchableStore> | undefined)?.search !== "function") return undefined;
  try {
    if (like.getStore() !== store) return undefined;
    const namespace = like.getNamespace();
    return Array.isArray(namespace) && namespace.every((part) => typeof part === "string") ? namespace : undefined;
  } catch {
    return undefined;
  }
}

// One pass over the namespace: the files, or "moved" when the store's order changed under the
// pages (a write or delete in between), or undefined for a key the backend's glob would treat otherwise.
async function readNamespace(
  store: SearchableStore,
  namespace: string[],
  root: string,
  pageSize: number,
): Promise<StoreLibraryFiles | "moved" | undefined> {
  const files: BackendFileInfo[] = [];
  const contents = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  let outcome: "moved" | "other" | undefined;
  const met = await searchInPages(
    (page) => store.search(namespace, page),
    pageSize,
    (items) => {
      for (const item of items) {
        const key = String(item.key);
        if (!key.startsWith(root)) continue;
        // A search lists a namespace with those below it (and in PostgreSQL, those that merely
        // start with its name); the backend reads files from its own namespace only.
        if (!sameNamespace(item.namespace, namespace) || !listedByGlob(key.slice(root.length))) outcome = "other";
        else if (seen.has(key)) outcome = "moved";
        if (outcome) return false;
        seen.add(key);
        const file = fileData(item.value);
        // The backend skips what is not a file, as here.
        if (!file) continue;
        files.push({ path: key, is_dir: false, size: sizeOf(file.content), modified_at: file.modified_at });
        if (key.endsWith("/SKILL.md")) contents.set(key, bytesOf(file.content));
      }
      return true;
    },
  );
  if (!met || outcome === "moved") return "moved";
  return outcome === "other" ? undefined : { files, contents };
}

// Whether deepagents' glob("**", root) lists a key with this path below the root (its micromatch
// pattern with dot files): not an empty one, none with a line break, nor a `.` or `..` part.
function listedByGlob(relative: string): boolean {
  const path = relative.startsWith("/") ? relative.slice(1) : relative;
  return (
    path !== "" && !/[\r\n\u2028\u2029]/.test(path) && !path.split("/").some((part) => part === "." || part === "..")
  );
}

type FileContent = string | unknown[] | ArrayBufferView;

// A stored file as the backend reads one (deepagents' FileData, both versions), or undefined.
function fileData(value: Record<string, unknown>): { content: FileContent; modified_at: string } | undefined {
  const { content, created_at, modified_at } = value;
  const isContent = typeof content === "string" || Array.isArray(content) || ArrayBuffer.isView(content);
  if (!isContent || typeof created_at !== "string" || typeof modified_at !== "string") return undefined;
  return { content, modified_at };
}

// The size the backend lists: characters of the text (lines joined for the first version), or bytes.
function sizeOf(content: FileContent): number {
  if (Array.isArray(content)) return content.join("\n").length;
  return ArrayBuffer.isView(content) ? content.byteLength : content.length;
}

// What the backend's downloadFiles returns: the text as UTF-8, or the bytes as stored.
function bytesOf(content: FileContent): Uint8Array {
  if (Array.isArray(content)) return new TextEncoder().encode(content.join("\n"));
  return typeof content === "string" ? new TextEncoder().encode(content) : (content as Uint8Array);
}

/**
 * `folders` with its `listFiles` answered from one read of the store (see {@link storeLibraryFiles})
 * when the backend is a StoreBackend over it, as a full scan lists each skill's files: for the
 * skills a refresh reads again, which StoreBackend would list by paging its whole namespace, 100
 * items a query, once per folder. Otherwise, and for listings longer than a snapshot keeps, it is
 * `folders` itself.
 */
export function listingFromStore(
  folders: SkillSource,
  backend: SkillsBackend,
  place: { root: string; separator: string; store?: unknown },
): SkillSource {
  const { root, separator, store } = place;
  if (store === undefined) return folders;
  let read: Promise<StoreLibraryFiles | undefined> | undefined;
  return {
    ...folders,
    async listFiles(skill, limits) {
      read ??= storeLibraryFiles(backend, store, root);
      const everything = (await read)?.files.filter((file) => isContained(file.path, root));
      if (
        !everything ||
        limits.maxDepth > SNAPSHOT_FILE_LIMITS.maxDepth ||
        limits.maxFiles > SNAPSHOT_FILE_LIMITS.maxFiles
      )
        return folders.listFiles(skill, limits);
      const files = filesOfSkills([skill], everything, separator).get(skill.path)!;
      return snapshotListing({ skill, digest: "", ...files }, separator, limits)!;
    },
  };
}
