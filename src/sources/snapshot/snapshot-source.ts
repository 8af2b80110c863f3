import type { Diagnostic } from "../../core/diagnostic.js";
import { buildLibrarySnapshot, type LibrarySnapshot, type SnapshotSkill } from "../../core/catalog/library-snapshot.js";
import { applyCorrections } from "../../core/catalog/snapshot-correction.js";
import { ParentFolderNotes } from "../../core/catalog/skill-parent-folder.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../../core/skill-source.js";
import { sha256Hex } from "../../core/text/sha256-hex.js";
import { rememberTokenCounts } from "../../core/text/known-token-counts.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { backendPlace, createBackendSource, isContained } from "../backend-source.js";
import { refuseUnknownOptions } from "../../errors/known-options.js";
import type { SkillsBackend } from "../skills-backend.js";
import { readCorrections } from "./read-corrections.js";
import { scanBackendLibrary, type LibraryPlace } from "./scan-backend-library.js";
import { snapshotListing } from "./snapshot-files.js";
import { listingFromStore } from "./store-library-files.js";
import { snapshotNotes, type SnapshotNotes } from "./snapshot-notes.js";
import {
  abandonedAfterMsOf,
  SNAPSHOT_SOURCE_OPTIONS,
  type SnapshotRefresh,
  type SnapshotSource,
  type SnapshotSourceOptions,
} from "./snapshot-source-options.js";
import { retryingStore, type RetryingStore } from "./snapshot-store.js";
import { beginSnapshotWrite, dropSnapshotWrite, finishSnapshotWrite } from "./snapshot-writer.js";
import { loadCorrections, readCorrectionsMark, readHeadAndMark, storeCorrections } from "./stored-corrections.js";
import {
  readHead,
  readSnapshot,
  type HeadReading,
  type SnapshotPlace,
  type SnapshotReading,
  type StoredHead,
} from "./stored-snapshot.js";

/**
 * A backend source for a fleet: the catalog comes from a versioned snapshot in `store`, which
 * a joining worker reads (a small head, then the snapshot) instead of listing and reading the
 * whole library. Whoever finds no usable snapshot scans the library and writes one; each scan
 * reads only the head and the corrections' mark to see whether another worker wrote anything. A
 * skill's `SKILL.md` is read when it is loaded and checked against its digest: a skill changed or
 * removed since is read again and a correction of its entry alone stored beside the snapshot, and
 * content that does not match is never served.
 */
export function createSnapshotSource(options: SnapshotSourceOptions): SnapshotSource {
  refuseUnknownOptions("createSnapshotSource", options, SNAPSHOT_SOURCE_OPTIONS);
  const {
    store: _store,
    namespace: _namespace,
    storeName: _storeName,
    retry: _retry,
    abandonedAfterMs: _abandonedAfterMs,
    ...backendOptions
  } = options;
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
    abandonedAfterMsOf(options),
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
  // What this process serves: the stored snapshot with the corrections laid over it.
  #snapshot: LibrarySnapshot | undefined;
  // The stored snapshot, the head that named it and the corrections' mark it was read at.
  #stored: { snapshot: LibrarySnapshot; head: StoredHead; mark: string | undefined } | undefined;
  #byPath = new Map<string, SnapshotSkill>();
  #scan: SkillSourceScan | undefined;
  // The head this process last acted on (a generation, or an unusable head's stamp).
  #seen: string | undefined;
  // The stored snapshot is a newer skillset's: this process keeps its own scan and writes nothing.
  #readOnly = false;
  #scanning: Promise<SkillSourceScan> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private readonly place: SnapshotPlace;
  private readonly notes: SnapshotNotes;

  constructor(
    private readonly library: LibraryPlace,
    { store, key, source }: { store: RetryingStore; key: string; source: string },
    private readonly backend: () => Promise<SkillsBackend>,
    private readonly folders: SkillSource,
    storeName: string,
    abandonedAfterMs: number,
  ) {
    const [writers, corrections] = [store.below("writers"), store.below("corrections")];
    this.place = { store, writers, corrections, key, source, abandonedAfterMs };
    this.notes = snapshotNotes(storeName, key, library.id, library.root);
  }

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
      const [head, mark] = await readHeadAndMark(this.place);
      const stored = this.#stored;
      if (head.kind === "head" && stored && sameHead(head.head, stored.head)) {
        if (mark === stored.mark && this.#scan) return this.#scan;
        return await this.#adoptStored(stored.snapshot, head.head, mark, []);
      }
      if (head.kind === "unusable" && head.stamp === this.#seen && this.#scan) return this.#scan;
      const reading = head.kind === "head" ? await readSnapshot(this.place, head.head) : head;
      if (reading.kind === "found") {
        this.#readOnly = false;
        this.#seen = reading.snapshot.generation;
        return await this.#adoptStored(reading.snapshot, reading.head, mark, []);
      }
      return await (queued ? this.#scanLibrary(reading) : this.#serialized(() => this.#scanLibrary(reading)));
    } catch (error) {
      return this.notes.unavailable(error, this.#scan);
    }
  }

  // No usable snapshot: scan the library, and store the result unless a newer skillset owns it.
  async #scanLibrary(reading: HeadReading | SnapshotReading): Promise<SkillSourceScan> {
    const newer = reading.kind === "unusable" && reading.newer;
    const write = newer ? undefined : await beginSnapshotWrite(this.place);
    const built = await this.#scanBackend();
    const notes = reading.kind === "unusable" ? [this.notes.unusableSnapshot(reading.problem, newer)] : [];
    this.#readOnly = newer;
    if (!write) {
      this.#seen = reading.kind === "unusable" ? reading.stamp : built.generation;
      this.#stored = undefined;
      this.#adopt(built, notes);
      return this.#scan!;
    }
    const { head } = await finishSnapshotWrite(this.place, write, built);
    this.#seen = head.generation;
    // Another worker's scan began later and its snapshot is current: serve that one.
    if (head.generation !== built.generation) return this.#scanOnce(true);
    return this.#adoptStored(built, head, await readCorrectionsMark(this.place), notes);
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
    // Changed or removed since the snapshot: read it again and store a correction of its entry alone.
    const { contents } = await this.#serialized(() => this.#correct([skill.path]));
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
    return this.#serialized(async () => (paths ? (await this.#correct(paths)).result : this.#refreshAll()));
  }

  async #refreshAll(): Promise<SnapshotRefresh> {
    const before = await readHead(this.place);
    if (before.kind === "unusable" && before.newer) {
      const built = await this.#scanBackend();
      [this.#readOnly, this.#seen, this.#stored] = [true, before.stamp, undefined];
      this.#adopt(built, []);
      return this.#result(false);
    }
    const write = await beginSnapshotWrite(this.place);
    const built = await this.#scanBackend();
    this.#readOnly = false;
    const current = await readHead(this.place);
    // Unchanged: the head names this very snapshot, and no correction changes it.
    if (current.kind === "head" && current.head.generation === built.generation) {
      await this.#adoptStored(built, current.head, await readCorrectionsMark(this.place), []);
      if (this.#snapshot!.generation === built.generation) {
        this.#seen = built.generation;
        await dropSnapshotWrite(this.place, write);
        return this.#result(false);
      }
    }
    const { written, head } = await finishSnapshotWrite(this.place, write, built);
    this.#seen = head.generation;
    if (head.generation === built.generation)
      await this.#adoptStored(built, head, await readCorrectionsMark(this.place), []);
    else await this.#scanOnce(true);
    return this.#result(written);
  }

  // The skills at `paths` read again; when that changes the catalog, stored as corrections of
  // their own (never a rewrite of the whole snapshot, which would lose other workers' corrections).
  async #correct(paths: readonly string[]) {
    await this.#scanOnce(true);
    const base = this.#snapshot ?? (await this.#scanBackend());
    const backend = await this.backend();
    const folders = listingFromStore(this.folders, backend, this.library);
    const read = await readCorrections(this.library.id, paths, backend, folders);
    const next = await applyCorrections(base, read.corrections);
    const written = !this.#readOnly && next.generation !== base.generation;
    if (written) {
      await storeCorrections(this.place, read.corrections);
      await this.#scanOnce(true);
    } else if (this.#readOnly || !this.#snapshot) this.#adopt(next, []);
    return { contents: read.contents, result: this.#result(written) };
  }

  // `snapshot`, stored and named by `head`, served with the corrections that apply over it.
  async #adoptStored(snapshot: LibrarySnapshot, head: StoredHead, mark: string | undefined, notes: Diagnostic[]) {
    const { corrections, problems } =
      mark === undefined ? { corrections: [], problems: [] } : await loadCorrections(this.place, head);
    const served = await applyCorrections(snapshot, corrections);
    this.#stored = { snapshot, head, mark };
    this.#adopt(served, [...notes, ...problems.map((problem) => this.notes.unusableCorrection(problem))]);
    return this.#scan!;
  }

  #result(written: boolean): SnapshotRefresh {
    return { generation: this.#snapshot!.generation, skills: this.#snapshot!.count, written };
  }

  #adopt(snapshot: LibrarySnapshot, notes: Diagnostic[]): void {
    // Its catalog is then fitted to the budget without loading the encoding.
    rememberTokenCounts(snapshot.tokens);
    this.#snapshot = snapshot;
    this.#byPath = new Map(snapshot.skills.map((entry) => [entry.skill.path, entry]));
    // The catalog's groups then read each skill's parent folder from here, not from its path.
    const parents = new ParentFolderNotes();
    this.#scan = {
      version: `${this.library.id}#${snapshot.generation.slice(0, 16)}`,
      skills: snapshot.skills.map((entry) => {
        parents.note(entry.skill);
        return entry.skill;
      }),
      diagnostics: [...snapshot.diagnostics, ...notes],
    };
  }

  // Refreshes of this process run one after another; other processes are met through the head.
  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}

function sameHead(one: StoredHead, other: StoredHead): boolean {
  return one.generation === other.generation && one.since === other.since;
}
