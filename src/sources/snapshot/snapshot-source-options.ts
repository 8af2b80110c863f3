import type { SkillSource } from "../../core/skill-source.js";
import type { KnownOptions } from "../../errors/known-options.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { BACKEND_SOURCE_OPTIONS, type BackendSourceOptions } from "../backend-source.js";
import type { SnapshotStore, StoreRetry } from "./snapshot-store.js";

/** Options of `createSnapshotSource`: a backend source's, and where its snapshot is kept. */
export interface SnapshotSourceOptions extends BackendSourceOptions {
  /** The store that keeps the snapshot, usually the one that holds the skills (a LangGraph `PostgresStore`). */
  store: SnapshotStore;
  /** The snapshot's namespace in `store`; keep it outside the skills' own. @default ["skillset", "snapshots"] */
  namespace?: string[];
  /** Names the store in errors (a URL without its password, say). @default the store's class name */
  storeName?: string;
  /** How a store that does not answer is asked again. @default 3 tries, 200 ms apart, doubling */
  retry?: StoreRetry;
  /**
   * How long, by the store's clock, a snapshot write may stay unfinished before a later writer
   * takes its writer for dead and deletes what it left; also how long corrections a newer
   * snapshot superseded are kept. Keep it above your longest full refresh. @default 600_000 (10 minutes)
   */
  abandonedAfterMs?: number;
}

export const SNAPSHOT_SOURCE_OPTIONS = {
  ...BACKEND_SOURCE_OPTIONS,
  store: true,
  namespace: true,
  storeName: true,
  retry: true,
  abandonedAfterMs: true,
} as const satisfies KnownOptions<SnapshotSourceOptions>;

/** `options.abandonedAfterMs`, 10 minutes when not given; anything but a number of milliseconds is refused. */
export function abandonedAfterMsOf(options: SnapshotSourceOptions): number {
  const value = options.abandonedAfterMs ?? 600_000;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  throw new SkillsetError(
    "invalid-options",
    `createSnapshotSource: abandonedAfterMs must be a number of milliseconds, 0 or more (got ${typeof value === "string" ? JSON.stringify(value) : String(value)})`,
  );
}

/** What {@link SnapshotSource.refresh} did. */
export interface SnapshotRefresh {
  /** The generation of the catalog now current (a digest of its content, corrections included). */
  generation: string;
  /** Skills it lists. */
  skills: number;
  /** Whether anything was written (`false` when the library had not changed). */
  written: boolean;
}

/** A backend source whose catalog comes from a snapshot kept in a store, shared by a fleet of workers. */
export interface SnapshotSource extends SkillSource {
  /**
   * Reads the library again and stores what changed: all of it, as a new snapshot, or only the
   * skills whose `SKILL.md` is at `paths` (added, changed or removed there), as corrections of
   * their own that every worker lays over the snapshot, leaving every other entry as it was.
   */
  refresh(paths?: readonly string[]): Promise<SnapshotRefresh>;
}
