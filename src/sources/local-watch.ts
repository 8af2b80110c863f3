import { watch, type FSWatcher } from "node:fs";
import type { TimeSlice } from "../core/time-slice.js";

/**
 * The folder watchers (inotify/FSEvents) of one local source and what they have seen. A source
 * watches the folders of its last scan from its second scan on, so that re-scans of an
 * unchanged tree need not look at the files.
 */
export interface LocalWatchState {
  /** One watcher per watched folder. */
  readonly watchers: Map<string, FSWatcher>;
  /** Whether the source relies on its watchers; false until the second scan and after a failure. */
  watching: boolean;
  /**
   * Set when the system refuses more watches (inotify limit) or the filesystem cannot be
   * watched: re-scans then compare stamps for good instead of retrying every time.
   */
  problem: string | undefined;
  /** Something may have changed since the last scan started. */
  dirty: boolean;
  /** Sets `dirty`; the listener of every watcher. */
  readonly markDirty: () => void;
  /** {@link stopWatching} this state; the error listener of every watcher. */
  readonly stop: () => void;
}

/** A state that watches nothing yet and counts as dirty. */
export function createLocalWatchState(): LocalWatchState {
  const state: LocalWatchState = {
    watchers: new Map(),
    watching: false,
    problem: undefined,
    dirty: true,
    markDirty: () => {
      state.dirty = true;
    },
    stop: () => stopWatching(state),
  };
  return state;
}

/**
 * Watches exactly `directories`, pausing when `slice` is due. A folder watched for the first
 * time may have changed before its watcher existed, so that marks the state dirty: the next
 * scan compares stamps once more. When a folder cannot be watched, records the `problem` and
 * stops watching.
 */
export async function syncWatchers(
  state: LocalWatchState,
  directories: readonly string[],
  slice: TimeSlice,
): Promise<void> {
  const { watchers } = state;
  // Each loop goes over every folder (100,000 in the largest libraries, where the set alone took
  // 50 ms), so each pauses when the slice is due, and stops if watching was given up meanwhile.
  const wanted = new Set<string>();
  for (const directory of directories) {
    if (slice.due() && !(await stillWatching(state, slice))) return;
    wanted.add(directory);
  }
  for (const [directory, watcher] of watchers) {
    if (slice.due() && !(await stillWatching(state, slice))) return;
    if (!wanted.has(directory)) {
      watcher.close();
      watchers.delete(directory);
    }
  }
  for (const directory of wanted) {
    if (slice.due() && !(await stillWatching(state, slice))) return;
    if (watchers.has(directory)) continue;
    try {
      const watcher = watch(directory, { persistent: false }, state.markDirty);
      watcher.on("error", state.stop);
      watchers.set(directory, watcher);
      state.dirty = true;
    } catch (error) {
      state.problem = `Cannot watch ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)}); re-scans compare file stamps instead`;
      stopWatching(state);
      return;
    }
  }
}

async function stillWatching(state: LocalWatchState, slice: TimeSlice): Promise<boolean> {
  await slice.pause();
  return state.watching;
}

/** Closes every watcher and marks the state dirty, so the next scan looks at the files again. */
export function stopWatching(state: LocalWatchState): void {
  for (const watcher of state.watchers.values()) watcher.close();
  state.watchers.clear();
  state.watching = false;
  state.dirty = true;
}
