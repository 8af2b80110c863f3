import type { Diagnostic } from "../../core/diagnostic.js";
import { buildLibrarySnapshot, type LibrarySnapshot, type SnapshotSkill } from "../../core/catalog/library-snapshot.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../../core/skill-source.js";
import { sha256Hex } from "../../core/text/sha256-hex.js";
import { rememberTokenCounts } from "../../core/text/known-token-counts.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import {
  BACKEND_SOURCE_OPTIONS,
  backendPlace,
  createBackendSource,
  isContained,
  type BackendSourceOptions,
} from "../backend-source.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";
import type { SkillsBackend } from "../skills-backend.js";
import { refreshEntries } from "./refresh-entries.js";
import { scanBackendLibrary, type LibraryPlace } from "./scan-backend-library.js";
import { snapshotListing } from "./snapshot-files.js";
import { listingFromStore } from "./store-library-files.js";
import { retryingStore, type SnapshotStore, type StoreRetry } from "./snapshot-store.js";
import {
  readHead,
  readSnapshot,
  writeSnapshot,
  type HeadReading,
  type SnapshotPlace,
  type SnapshotReading,
} from "./stored-snapshot.js";

/** Options of {@link createSnapshotSource}: a backend source's, and where its snapshot is kept. */
export interface SnapshotSourceOptions extends BackendSourceOptions {
  /** The store that keeps the snapshot, usually the one that holds the skills (a LangGraph `PostgresStore`). */
  store: SnapshotStore;
  /** The snapshot's namespace in `store`; keep it outside the skills' own. @default ["skillset", "snapshots"] */
  namespace?: string[];
  /** Names the store in errors (a URL without its password, say). @default the store's class name */
  storeName?: string;
  /** How a store that does not answer is asked again. @default 3 tries, 200 ms apart, doubling */
  retry?: StoreRetry;
}

const SNAPSHOT_SOURCE_OPTIONS = {
  ...BACKEND_SOURCE_OPTIONS,
  store: true,
  namespace: true,
  storeName: true,
  retry: true,
} as const satisfies KnownOptions<SnapshotSourceOptions>;

/** What {@link SnapshotSource.refresh} did. */
export interface SnapshotRefresh {
  /** The generation of the snapshot now current (a digest of its content). */
  generation: string;
  /** Skills it lists. */
  skills: number;
  /** Whether a new snapshot was written (`false` when the library had not changed). */
  written: boolean;
}

/** A backend source whose catalog comes from a snapshot kept in a store, shared by a fleet of workers. */
export interface SnapshotSource extends SkillSource {
  /**
   * Reads the library again and writes its snapshot when it changed: all of it, or only the
   * skills whose `SKILL.md` is at `paths` (added, changed or removed there), leaving every other
   * entry as it was.
   */
  refresh(paths?: readonly string[]): Promise<SnapshotRefresh>;
}

/**
 * A backend source for a fleet: the catalog comes from a versioned snapshot in `store`, which
 * a joining worker reads (a small head, then the snapshot) instead of listing and reading the
 * whole library. Whoever finds no usable snapshot scans the library and writes one; each scan
 * reads only the head to see whether another worker wrote a newer one. A skill's `SKILL.md` is
 * read when it is loaded and checked against its digest: a skill changed or removed since is
 * read again and its entry alone rewritten, and content that does not match is never served.
 */
export function createSnapshotSource(options: SnapshotSourceOptions): SnapshotSource {
  refuseUnknownOptions("createSnapshotSource", options, SNAPSHOT_SOURCE_OPTIONS);
  const { store: _store, namespace: _namespace, storeName: _storeName, retry: _retry, ...backendOptions } = options;
  const backendSource = createBackendSource(backendOptions);
  const { root, separator, getBackend } = backendPlace(backendOptions);
  const storeName = options.storeName ?? options.store.constructor?.name ?? "store";
  const store = retryingStore(options.store, options.namespace ?? ["skillset", "snapshots"], storeName, options.retry);
  const library = new SnapshotLibrary(
    { root, separator, id: backendSource.id, recursive: options.recursive ?? false, store: options.store },
    { store, key: backendSource.id, source: backendSource.id },
    getBackend,
    backendSource,
    storeName,
  );
  return {
    specificationVersion: "v1",
    id: backendSource.id,
    scan: () => library.scan(),
    readSkill: (skill) => library.readSkill(skill),
    readFile: (skill, relativePath, maxBytes) => backendSource.readFile!(skill, relativePath, maxBytes),
    listFiles: async (skill, limits) => {
      const entry = library.entry(skill);
      return (entry && snapshotListing(entry, separator, limits)) ?? backendSource.listFiles(skill, limits);
    },
    refresh: (paths) => library.refresh(paths),
  };
}

// One source's snapshot as this process holds it. Only data derived from the library lives
// here, shared by every thread; each write goes through the store's own put.
class SnapshotLibrary {
  #snapshot: LibrarySnapshot | undefined;
  #byPath = new Map<string, SnapshotSkill>();
  #scan: SkillSourceScan | undefined;
  // The head this process last acted on (a generation, or an unusable head's stamp).
  #seen: string | undefined;
  // The stored snapshot is a newer skillset's: this process keeps its own scan and writes nothing.
  #readOnly = false;
  #scanning: Promise<SkillSourceScan> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly library: LibraryPlace,
    private readonly place: SnapshotPlace,
    private readonly backend: () => Promise<SkillsBackend>,
    private readonly folders: SkillSource,
    private readonly storeName: string,
  ) {}

  entry(skill: SkillMetadata): SnapshotSkill | undefined {
    const entry = this.#byPath.get(skill.path);
    return entry?.skill.name === skill.name ? entry : undefined;
  }

  /** The catalog: the current snapshot, read again only when the head names another one. */
  scan(): Promise<SkillSourceScan> {
    this.#scanning ??= this.#scanOnce().finally(() => (this.#scanning = undefined));
    return this.#scanning;
  }

  async #scanOnce(queued = false): Promise<SkillSourceScan> {
    try {
      const head = await readHead(this.place);
      if (head.kind === "head" && head.head.generation === this.#snapshot?.generation && this.#scan) return this.#scan;
      if (head.kind === "unusable" && head.stamp === this.#seen && this.#scan) return this.#scan;
      const reading = head.kind === "head" ? await readSnapshot(this.place, head.head) : head;
      if (reading.kind === "found") {
        this.#readOnly = false;
        this.#seen = reading.snapshot.generation;
        this.#adopt(reading.snapshot, []);
        return this.#scan!;
      }
      return await (queued ? this.#scanLibrary(reading) : this.#serialized(() => this.#scanLibrary(reading)));
    } catch (error) {
      return this.#unavailable(error);
    }
  }

  // No usable snapshot: scan the library, and store the result unless a newer skillset owns it.
  async #scanLibrary(reading: HeadReading | SnapshotReading): Promise<SkillSourceScan> {
    const newer = reading.kind === "unusable" && reading.newer;
    const built = await this.#scanBackend();
    const notes: Diagnostic[] = [];
    if (reading.kind === "unusable")
      notes.push(
        this.#diagnostic(
          "warning",
          "snapshot-unusable",
          `The catalog snapshot in ${this.storeName} is unusable (${reading.problem}); ${
            newer
              ? "this worker scanned the library itself and leaves the snapshot to the newer skillset"
              : "the library was scanned and its snapshot written again"
          }`,
        ),
      );
    if (!newer) await writeSnapshot(this.place, built, reading.kind === "unusable" ? reading.stamp : undefined);
    this.#readOnly = newer;
    this.#seen = newer && reading.kind === "unusable" ? reading.stamp : built.generation;
    this.#adopt(built, notes);
    return this.#scan!;
  }

  async #scanBackend(): Promise<LibrarySnapshot> {
    const { skills, diagnostics } = await scanBackendLibrary(await this.backend(), this.library, this.folders);
    return buildLibrarySnapshot(this.library.id, skills, diagnostics);
  }

  /** Reads a skill's `SKILL.md` and serves it only when it matches the snapshot's digest. */
  async readSkill(skill: SkillMetadata): Promise<Uint8Array> {
    const entry = this.entry(skill);
    if (!entry) return this.folders.readSkill(skill);
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.folders.readSkill(skill);
    } catch (error) {
      if (!(SkillsetError.isInstance(error) && error.code === "cannot-read")) throw error;
    }
    if (bytes && (await sha256Hex(bytes)) === entry.digest) return bytes;
    // Changed or removed since the snapshot: read it again and rewrite its entry alone.
    const { contents } = await this.#serialized(() => this.#refreshPaths([skill.path]));
    const now = this.entry(skill);
    const fresh = contents.get(skill.path);
    if (!fresh || !now)
      throw new SkillsetError(
        "not-found",
        `Skill '${skill.name}' was removed from the library or no longer loads under that name; the catalog has been refreshed without it.`,
      );
    if ((await sha256Hex(fresh)) !== now.digest)
      throw new SkillsetError("cannot-read", `Skill '${skill.name}' is changing in the library; try loading it again.`);
    return fresh;
  }

  /** See {@link SnapshotSource.refresh}. */
  refresh(paths?: readonly string[]): Promise<SnapshotRefresh> {
    const { root, separator } = this.library;
    const outside = paths?.find((path) => !isContained(path, root) || !path.endsWith(`${separator}SKILL.md`));
    if (outside !== undefined)
      return Promise.reject(
        new SkillsetError(
          "invalid-options",
          `refresh: ${outside} is not a SKILL.md below ${root}, so it is no skill of this source`,
        ),
      );
    return this.#serialized(async () => {
      if (paths) return (await this.#refreshPaths(paths)).result;
      const head = await readHead(this.place);
      const built = await this.#scanBackend();
      const current = head.kind === "head" ? head.head.generation : undefined;
      const newer = head.kind === "unusable" && head.newer;
      const written = !newer && current !== built.generation;
      if (written) await writeSnapshot(this.place, built, current);
      this.#readOnly = newer;
      this.#seen = head.kind === "unusable" && newer ? head.stamp : built.generation;
      this.#adopt(built, []);
      return { generation: built.generation, skills: built.count, written };
    });
  }

  // The latest stored snapshot with the skills at `paths` read again, stored when it changed.
  async #refreshPaths(paths: readonly string[]) {
    await this.#scanOnce(true);
    const base = this.#snapshot ?? (await this.#scanBackend());
    const backend = await this.backend();
    const folders = listingFromStore(this.folders, backend, this.library);
    const { skills, diagnostics, contents } = await refreshEntries(base, paths, backend, folders);
    const next = await buildLibrarySnapshot(this.library.id, skills, diagnostics);
    const written = !this.#readOnly && next.generation !== base.generation;
    if (written) await writeSnapshot(this.place, next, base.generation);
    if (!this.#readOnly) this.#seen = next.generation;
    this.#adopt(next, []);
    return { contents, result: { generation: next.generation, skills: next.count, written } };
  }

  #adopt(snapshot: LibrarySnapshot, notes: Diagnostic[]): void {
    // Its catalog is then fitted to the budget without loading the encoding.
    rememberTokenCounts(snapshot.tokens);
    this.#snapshot = snapshot;
    this.#byPath = new Map(snapshot.skills.map((entry) => [entry.skill.path, entry]));
    this.#scan = {
      version: `${this.library.id}#${snapshot.generation.slice(0, 16)}`,
      skills: snapshot.skills.map((entry) => entry.skill),
      diagnostics: [...snapshot.diagnostics, ...notes],
    };
  }

  // The store (or the library behind it) does not answer: keep serving what this process has,
  // or an empty catalog that says why; the next scan asks again.
  #unavailable(error: unknown): SkillSourceScan {
    const message =
      SkillsetError.isInstance(error) && error.code === "store-unavailable"
        ? `${error.message}; the next scan tries again`
        : `Cannot scan ${this.library.root} through ${this.storeName}: ${error instanceof Error ? error.message : String(error)}`;
    const problem = this.#diagnostic("error", "store-unavailable", message);
    if (this.#scan) return { ...this.#scan, diagnostics: [...this.#scan.diagnostics, problem] };
    return { version: `${this.library.id}#unavailable`, skills: [], diagnostics: [problem] };
  }

  #diagnostic(severity: Diagnostic["severity"], code: string, message: string): Diagnostic {
    return { severity, code, file: `${this.storeName}:${this.place.key}`, message, source: this.library.id };
  }

  // Refreshes of this process run one after another; other processes are met through the head.
  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}
