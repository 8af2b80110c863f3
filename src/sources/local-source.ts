import type { Diagnostic } from "../core/diagnostic.js";
import { baseName } from "../core/text/path-separator.js";
import { skillDirectory } from "../core/skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../core/skill-source.js";
import { allowedSkillFolder, readSkillFileWithinRoots } from "./allowed-roots.js";
import { createLocalSkillCache, type LocalSkillCacheBuilder } from "./local-skill-cache.js";
import {
  resolveLocalSourceOptions,
  type LocalSourceOptions,
  type LocalSourceSettings,
} from "./local-source-options.js";
import { createLocalWatchState, stopWatching, syncWatchers, type LocalWatchState } from "./local-watch.js";
import { scanLocalFolder } from "./scan-local-folder.js";
import { listSkillFiles, readContainedFile } from "./skill-folder-files.js";
import { createTimeSlice } from "../core/time-slice.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

export type { LocalSourceOptions } from "./local-source-options.js";
export { listSkillFiles, readContainedFile } from "./skill-folder-files.js";

// Longest stretch of synchronous file work between two pauses of a scan. Sync reads in slices
// beat fs.promises several times over for thousands of small files (bench/discovery.mjs).
const SLICE_MS = 10;

/** Everything a local source keeps between scans. */
interface LocalSourceState {
  /** The skill folders of the last scan, with what was read from them. */
  cache: LocalSkillCacheBuilder;
  /** The last scan's result, returned again while nothing changes. */
  last: SkillSourceScan | undefined;
  /** The folders the last scan walked and read: the ones to watch. */
  lastWalked: string[];
  /** The scan under way; calls made meanwhile share its result. */
  running: Promise<SkillSourceScan> | undefined;
  /** Counts the scans that found a change; part of each scan's `version`. */
  version: number;
  watch: LocalWatchState;
}

const LOCAL_SOURCE_OPTIONS = {
  path: true,
  recursive: true,
  maxDepth: true,
  maxDirectories: true,
  allowedRoots: true,
  watch: true,
  id: true,
} as const satisfies KnownOptions<LocalSourceOptions>;

/**
 * A source over local folders (Node only). Discovery reads the whole of each `SKILL.md`,
 * checking its size and UTF-8, but decodes only the frontmatter; symlinks are followed only
 * while they stay inside `allowedRoots`; special files are refused without blocking. A leading
 * `~` or `~/` in `path` and `allowedRoots` means the home folder. Scans pause every few
 * milliseconds, so a cold scan of a large tree does not hold up the event loop; re-scans reuse
 * what has not changed, and calls made while a scan runs share its result.
 */
export function createLocalSource(options: LocalSourceOptions | string): SkillSource {
  refuseUnknownOptions("createLocalSource", options, LOCAL_SOURCE_OPTIONS);
  const settings = resolveLocalSourceOptions(options);
  const { allowedRoots } = settings;
  const state: LocalSourceState = {
    cache: createLocalSkillCache(),
    last: undefined,
    lastWalked: [],
    running: undefined,
    version: 0,
    watch: createLocalWatchState(),
  };
  return {
    specificationVersion: "v1",
    id: settings.id,
    scan() {
      state.running ??= scanOnce(settings, state).finally(() => {
        state.running = undefined;
      });
      return state.running;
    },
    // Every read checks the skill's folder again (it may have become a link that leads out since
    // discovery) and then goes through its real path, so a link is not followed a second time.
    async readSkill(skill) {
      const folder = allowedSkillFolder(skill, allowedRoots);
      return readSkillFileWithinRoots(`${folder}/${baseName(skill.path)}`, allowedRoots);
    },
    async listFiles(skill, limits) {
      const real = allowedSkillFolder(skill, allowedRoots);
      const listing = listSkillFiles(real, limits, real);
      // Paths as the skill's own path names them: through the link the user sees.
      const folder = skillDirectory(skill);
      return { ...listing, files: listing.files.map((file) => ({ ...file, path: `${folder}/${file.relativePath}` })) };
    },
    async readFile(skill, relativePath, maxBytes) {
      const real = allowedSkillFolder(skill, allowedRoots);
      return readContainedFile(real, relativePath, maxBytes, real);
    },
    close() {
      stopWatching(state.watch);
    },
  };
}

// Returns the last scan when the watchers saw nothing change; otherwise scans.
async function scanOnce(settings: LocalSourceSettings, state: LocalSourceState): Promise<SkillSourceScan> {
  const { watch } = state;
  if (watch.watching) {
    // Two turns of the event loop make sure file events already queued have been seen.
    await new Promise((done) => setImmediate(done));
    await new Promise((done) => setImmediate(done));
    if (!watch.dirty && watch.watching && state.last) return state.last;
  } else if (settings.watch && !watch.problem && state.last) {
    // Second scan: watch the folders seen so far before polling, so nothing changes unseen.
    watch.watching = true;
    await syncWatchers(watch, state.lastWalked, createTimeSlice(SLICE_MS));
  }
  watch.dirty = false;
  return scanNow(settings, state);
}

// Scans, remembers what was read and watches what was walked; returns the last scan again when
// nothing changed.
async function scanNow(settings: LocalSourceSettings, state: LocalSourceState): Promise<SkillSourceScan> {
  const { watch } = state;
  const slice = createTimeSlice(SLICE_MS);
  if (state.last) await state.cache.indexInSlices(slice);
  const scan = await scanLocalFolder({ settings, previous: state.cache, usePolling: state.last !== undefined, slice });
  // Nothing to watch: check the folder again on every scan, so it is seen once it appears.
  if (scan.unscannable) watch.dirty = true;
  state.cache = scan.entries;
  state.lastWalked = scan.folders;
  const { diagnostics } = scan;
  if (watch.watching) await syncWatchers(watch, scan.folders, slice);
  if (watch.problem)
    diagnostics.push({
      severity: "info",
      code: "watch-unavailable",
      file: settings.root,
      message: watch.problem,
      source: settings.id,
    });
  // The catalog's merge after this scan gets a slice of its own.
  await slice.pause();

  // Unchanged skills keep their cached entry object, so comparing entries is by identity.
  if (state.last && scan.unchanged && sameMessages(state.last.diagnostics, diagnostics)) return state.last;
  state.last = { version: `${settings.id}#${++state.version}`, skills: scan.skills, diagnostics };
  return state.last;
}

function sameMessages(before: readonly Diagnostic[], after: readonly Diagnostic[]): boolean {
  return (
    before.length === after.length && before.every((diagnostic, index) => diagnostic.message === after[index]!.message)
  );
}
