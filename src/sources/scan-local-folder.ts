import { accessSync, constants, statSync } from "node:fs";
import { SkillCollector } from "../core/catalog/collect-skills.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { realOrResolved } from "../fs/link-target.js";
import type { CachedSkill, LocalSkillCache, LocalSkillCacheBuilder } from "./local-skill-cache.js";
import { createLocalSkillReader, mayHoldSkillFile } from "./local-skill-reader.js";
import type { LocalSourceSettings } from "./local-source-options.js";
import { walkLocalFolders } from "./local-walk.js";
import { findNestedSkillFile } from "./nested-skill-file.js";
import type { TimeSlice } from "../core/time-slice.js";

/** Inputs of {@link scanLocalFolder}. */
export interface LocalScanInput {
  settings: LocalSourceSettings;
  /** The previous scan's entries; an empty cache for a cold scan. */
  previous: LocalSkillCache;
  /** Compare stamps with `previous` before reading (every scan after the first). */
  usePolling: boolean;
  /** Cuts the synchronous file work into slices; also used by the caller after the scan. */
  slice: TimeSlice;
}

/** What one scan of a local folder found. */
export interface LocalScanResult {
  skills: SkillMetadata[];
  /** Problems with the source, its folders and its skills, in the order found. */
  diagnostics: Diagnostic[];
  /** The skill folders read: the cache for the next scan. An unchanged skill keeps its entry object. */
  entries: LocalSkillCacheBuilder;
  /** The same folders as `previous`, each with its entry object: nothing changed. */
  unchanged: boolean;
  /** The folders walked, then the skill folders: the folders to watch. */
  folders: string[];
  /** The source folder is missing or cannot be read, so there is nothing to watch. */
  unscannable: boolean;
}

/**
 * Scans one local source: its folder is one skill folder, or its child folders (at any depth
 * when `recursive`) are. Pauses first, since started from a timer callback the first two slices
 * would run before timers get another turn (libuv runs them after the check phase).
 */
export async function scanLocalFolder({
  settings,
  previous,
  usePolling,
  slice,
}: LocalScanInput): Promise<LocalScanResult> {
  await slice.pause();
  const { root, id, allowedRoots } = settings;
  const diagnostics: Diagnostic[] = [];
  const warn = (file: string, code: string, message: string) =>
    diagnostics.push({ severity: "warning", code, file, message, source: id });
  const skip = (file: string, code: string, message: string) =>
    diagnostics.push({ severity: "error", code, file, message, source: id });
  const reader = createLocalSkillReader({ previous, usePolling, sourceId: id, allowedRoots });
  let folders: string[] = [];

  for (const { path, message } of settings.pathProblems) warn(path, "unsupported-path", message);
  // An unexpandable path is never resolved: that would read a folder named `~user`.
  const problem = settings.readable ? rootProblem(root) : undefined;
  if (problem) warn(root, problem.code, problem.message);
  else if (settings.readable) {
    const realRoot = realOrResolved(root);
    if (!(mayHoldSkillFile(root) && reader.readSkillAt(root, realRoot))) {
      const { recursive, maxDepth, maxDirectories } = settings;
      folders = await walkLocalFolders(
        {
          root,
          realRoot,
          recursive,
          maxDepth,
          maxDirectories,
          allowedRoots,
          readSkillAt: (directory, realDirectory, name) => reader.readSkillAt(directory, realDirectory, name),
          readAhead: (folders, at) => reader.readAhead(folders, at),
          warn,
          skip,
        },
        slice,
      );
      // Every skill folder read, valid or not, has an entry.
      const nested = recursive || reader.entries.size > 0 ? undefined : findNestedSkillFile(root);
      if (nested)
        warn(
          root,
          "nested-skills",
          `No skill folder in this folder, but skills lie deeper (the first: ${nested}): read nested folders with the source's recursive option (--recursive on the command line)`,
        );
    }
  }

  // Collecting thousands of skills gets slices of its own.
  await slice.pause();
  const { directories, entries } = reader.entries;
  const collector = new SkillCollector(id, diagnostics);
  for (let at = 0; at !== entries.length;) {
    at = collectFrom(collector, entries, at, slice);
    if (at !== entries.length) await slice.pause();
  }
  const skills = collector.done();
  return {
    skills,
    diagnostics,
    entries: reader.entries,
    unchanged: reader.reused === previous.size && entries.length === previous.size,
    folders: folders.concat(directories),
    unscannable: problem !== undefined,
  };
}

// Adds entries from `from` on; returns where the slice ran out (or the end). The clock is read
// every 256 entries: an entry costs far less.
function collectFrom(
  collector: SkillCollector,
  entries: readonly CachedSkill[],
  from: number,
  slice: TimeSlice,
): number {
  for (let at = from; at < entries.length;) {
    collector.add(entries[at++]!);
    if (at % 256 === 0 && slice.due()) return at;
  }
  return entries.length;
}

/** Why the source folder cannot be scanned, or undefined when it can. */
function rootProblem(root: string): { code: string; message: string } | undefined {
  try {
    if (!statSync(root).isDirectory())
      return { code: "source-not-a-folder", message: `Skills folder ${root} is not a folder` };
    accessSync(root, constants.R_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { code: "source-missing", message: `Skills folder ${root} does not exist` };
    return { code: "source-unreadable", message: `Cannot read skills folder ${root}: ${code ?? String(error)}` };
  }
}
