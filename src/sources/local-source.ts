import { accessSync, constants, lstatSync, readdirSync, realpathSync, statSync, watch, type Dirent, type FSWatcher } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../core/errors.js";
import { inspectSkill, type InspectSkillResult } from "../core/inspect-skill.js";
import { collectSkills } from "../core/collect-skills.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-metadata.js";
import type { FileListLimits, SkillFile, SkillFileListing, SkillSource, SkillSourceScan } from "../core/skill-source.js";
import { expandHome } from "./expand-home.js";
import { readSkillFile, readSkillHead } from "./read-skill-head.js";
import { createTimeSlice, type TimeSlice } from "./time-slice.js";

/** Options of {@link createLocalSource}. */
export interface LocalSourceOptions {
  /** A folder of skill folders, or one skill folder; a leading `~` or `~/` means the home folder. */
  path: string;
  /**
   * Find skills in nested folders at any depth below `path` (collections such as
   * `skills/.curated/<name>`), not only in its direct children.
   * @default false
   */
  recursive?: boolean;
  /** Deepest folder level searched when `recursive`. @default 6 */
  maxDepth?: number;
  /** Folders visited at most per scan when `recursive`; a warning says when it stopped. @default 10000 */
  maxDirectories?: number;
  /** Folders that symlinks may point into (`~` expanded as in `path`). @default [path] */
  allowedRoots?: string[];
  /**
   * Watch the folders (inotify/FSEvents) after the first re-scan, so later re-scans of an
   * unchanged source cost almost nothing. Without it every re-scan checks each file's stamp.
   * @default true
   */
  watch?: boolean;
  /** Names the source in diagnostics. @default `local:<absolute path>` */
  id?: string;
}

const SKIPPED_FOLDERS = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);
const SKILL_FILES = ["SKILL.md", "skill.md"] as const;
// Longest stretch of synchronous file work between two pauses of a scan. Sync reads in slices
// beat fs.promises several times over for thousands of small files (bench/discovery.mjs).
const SLICE_MS = 10;

interface CachedSkill {
  /** `mtime:size:inode`, or "" when not known. */
  stamp: string;
  file: string;
  /** The frontmatter text the result was made from. */
  text: string;
  result: InspectSkillResult;
}

/**
 * A source over local folders (Node only). Discovery reads the whole of each `SKILL.md`,
 * checking its size and UTF-8, but decodes only the frontmatter; symlinks are followed only
 * while they stay inside `allowedRoots`; special files are refused without blocking. A leading
 * `~` or `~/` in `path` and `allowedRoots` means the home folder. Scans pause every few
 * milliseconds, so a cold scan of a large tree does not hold up the event loop; re-scans reuse
 * what has not changed, and calls made while a scan runs share its result.
 */
export function createLocalSource(options: LocalSourceOptions | string): SkillSource {
  const settings = typeof options === "string" ? { path: options } : options;
  // Paths that cannot be expanded (`~user/...`) are reported on every scan and never read.
  const pathProblems: Array<{ path: string; message: string }> = [];
  const expand = (path: string): string | undefined => {
    try {
      return expandHome(path);
    } catch (error) {
      if (!SkillsetError.isInstance(error)) throw error;
      pathProblems.push({ path, message: error.message });
      return undefined;
    }
  };
  const expandedPath = expand(settings.path);
  const root = expandedPath === undefined ? settings.path : resolve(expandedPath);
  const id = settings.id ?? `local:${root}`;
  const recursive = settings.recursive ?? false;
  const maxDepth = settings.maxDepth ?? 6;
  const maxDirectories = settings.maxDirectories ?? 10_000;
  const watchEnabled = settings.watch ?? true;
  const allowedRoots = (settings.allowedRoots ?? (expandedPath === undefined ? [] : [root])).flatMap((path) => {
    const expanded = expand(path);
    return expanded === undefined ? [] : [realOrResolved(expanded)];
  });

  let cache = new Map<string, CachedSkill>();
  let last: SkillSourceScan | undefined;
  let lastWalked: string[] = [];
  let running: Promise<SkillSourceScan> | undefined;
  let version = 0;
  const watchers = new Map<string, FSWatcher>();
  let watching = false;
  // Set when the system refuses more watches (inotify limit) or the filesystem cannot be watched:
  // re-scans then compare stamps for good instead of retrying every time.
  let watchProblem: string | undefined;
  let dirty = true;

  const markDirty = () => {
    dirty = true;
  };

  function isAllowed(realPath: string): boolean {
    return allowedRoots.some((allowed) => realPath === allowed || realPath.startsWith(allowed + sep));
  }

  /** Why the source folder cannot be scanned, or undefined when it can. */
  function rootProblem(): { code: string; message: string } | undefined {
    try {
      if (!statSync(root).isDirectory()) return { code: "source-not-a-folder", message: `Skills folder ${root} is not a folder` };
      accessSync(root, constants.R_OK | constants.X_OK);
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { code: "source-missing", message: `Skills folder ${root} does not exist` };
      return { code: "source-unreadable", message: `Cannot read skills folder ${root}: ${code ?? String(error)}` };
    }
  }

  async function scanNow(): Promise<SkillSourceScan> {
    const slice = createTimeSlice(SLICE_MS);
    // Started from a timer callback, the first two slices would run before timers get another
    // turn (libuv runs them after the check phase); pausing first lets them run between slices.
    await slice.pause();
    const diagnostics: Diagnostic[] = [];
    const next = new Map<string, CachedSkill>();
    const walked: string[] = [];
    const visited = new Set<string>();
    let directoryBudget = maxDirectories;

    const warn = (file: string, code: string, message: string) => diagnostics.push({ severity: "warning", code, file, message, source: id });

    const readSkillAt = (directory: string, usePolling: boolean): boolean => {
      for (const fileName of SKILL_FILES) {
        const file = `${directory}/${fileName}`;
        const previous = cache.get(directory);
        if (usePolling && previous) {
          const stamp = statStamp(file);
          if (stamp === previous.stamp) {
            next.set(directory, previous);
            return true;
          }
          if (stamp === undefined) continue;
        }
        try {
          // Cold scans skip the stamp (one fstat per file); the first poll records it.
          const head = readContained(file, usePolling);
          if (head === undefined) continue;
          if (previous && previous.file === file && previous.text === head.text) {
            // Only the body changed, or the stamp was not known yet: same skill, same entry.
            previous.stamp = head.stamp ?? "";
            next.set(directory, previous);
            return true;
          }
          const result = inspectSkill({ text: head.text, file, directoryName: directory.slice(directory.lastIndexOf("/") + 1), source: id });
          if (fileName !== "SKILL.md") {
            result.diagnostics.unshift({ severity: "warning", code: "lowercase-file", file, message: "Name the file SKILL.md; skill.md is accepted but not standard", source: id });
          }
          next.set(directory, { stamp: head.stamp ?? "", file, text: head.text, result });
          return true;
        } catch (error) {
          if (!SkillsetError.isInstance(error)) throw error;
          next.set(directory, {
            stamp: statStamp(file) ?? "",
            file,
            text: "",
            result: { diagnostics: [{ severity: "error", code: error.code, file, message: error.message, source: id }] },
          });
          return true;
        }
      }
      return false;
    };

    const readContained = (file: string, withStamp: boolean) => {
      try {
        return readSkillHead(file, withStamp);
      } catch (error) {
        if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
        const target = realOrResolved(file);
        if (!isAllowed(target)) throw new SkillsetError("symlink-escape", `${file} is a symbolic link to ${target}, outside the allowed folders`);
        return readSkillHead(target, withStamp);
      }
    };

    const childDirectories = (directory: string): string[] => {
      let entries: Dirent[];
      try {
        entries = readdirSync(directory, { withFileTypes: true });
      } catch (error) {
        warn(directory, "unreadable-folder", `Cannot list ${directory}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
        return [];
      }
      const children: string[] = [];
      for (const entry of entries) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        const child = `${directory}/${entry.name}`;
        if (entry.isDirectory()) children.push(child);
        else if (entry.isSymbolicLink()) {
          const target = realOrResolved(child);
          if (!isDirectory(target)) continue;
          if (isAllowed(target)) children.push(child);
          else warn(child, "symlink-escape", `${child} is a symbolic link to ${target}, outside the allowed folders; skipped`);
        }
      }
      return children.sort();
    };

    const usePolling = last !== undefined;
    // A depth-first walk in sorted order, kept on an explicit stack rather than in recursive
    // async calls, so the work between pauses runs as plain (optimised) synchronous code.
    const stack: Array<{ children: string[]; next: number; depth: number }> = [];
    const enter = (directory: string, depth: number) => {
      const real = realOrResolved(directory);
      if (visited.has(real)) return;
      visited.add(real);
      walked.push(directory);
      stack.push({ children: childDirectories(directory), next: 0, depth });
    };
    // Walks until the slice is used up; true once the walk is complete.
    const walkSlice = (): boolean => {
      while (stack.length > 0) {
        if (slice.due()) return false;
        const folder = stack[stack.length - 1]!;
        if (folder.next === folder.children.length) {
          stack.pop();
          continue;
        }
        const child = folder.children[folder.next++]!;
        if (readSkillAt(child, usePolling)) continue;
        if (!recursive || folder.depth + 1 >= maxDepth) continue;
        if (--directoryBudget < 0) {
          if (directoryBudget === -1) warn(root, "scan-limit", `Stopped scanning ${root} after ${maxDirectories} folders; skills below may be missing`);
          continue;
        }
        enter(child, folder.depth + 1);
      }
      return true;
    };

    for (const { path, message } of pathProblems) warn(path, "unsupported-path", message);
    // An unexpandable path is never resolved: that would read a folder named `~user`.
    const problem = expandedPath === undefined ? undefined : rootProblem();
    if (problem) {
      warn(root, problem.code, problem.message);
      // Nothing to watch: check the folder again on every scan, so it is seen once it appears.
      dirty = true;
    } else if (expandedPath !== undefined && !readSkillAt(root, usePolling)) {
      enter(root, 0);
      while (!walkSlice()) await slice.pause();
    }

    // Collecting thousands of skills, and the catalog's merge after it, each get a slice of their own.
    await slice.pause();
    const previous = cache;
    cache = next;
    for (const directory of next.keys()) walked.push(directory);
    lastWalked = walked;
    const skills = collectSkills([...next.values()].map((entry) => entry.result), id, diagnostics);
    if (watching) await syncWatchers(walked, slice);
    if (watchProblem) diagnostics.push({ severity: "info", code: "watch-unavailable", file: root, message: watchProblem, source: id });
    await slice.pause();

    // Unchanged skills keep their cached entry object, so comparing entries is by identity.
    if (last && sameEntries(previous, next) && sameMessages(last.diagnostics, diagnostics)) return last;
    last = { version: `${id}#${++version}`, skills, diagnostics };
    return last;
  }

  // Watches exactly `directories`. A folder watched for the first time may have changed before
  // its watcher existed, so the next scan compares stamps once more.
  async function syncWatchers(directories: string[], slice: TimeSlice) {
    const wanted = new Set(directories);
    for (const [directory, watcher] of watchers) {
      if (!wanted.has(directory)) {
        watcher.close();
        watchers.delete(directory);
      }
    }
    for (const directory of wanted) {
      if (watchers.has(directory)) continue;
      if (slice.due()) {
        await slice.pause();
        if (!watching) return;
      }
      try {
        const watcher = watch(directory, { persistent: false }, markDirty);
        watcher.on("error", stopWatching);
        watchers.set(directory, watcher);
        dirty = true;
      } catch (error) {
        watchProblem = `Cannot watch ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)}); re-scans compare file stamps instead`;
        stopWatching();
        return;
      }
    }
  }

  function stopWatching() {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    watching = false;
    dirty = true;
  }

  async function scanOnce(): Promise<SkillSourceScan> {
    if (watching) {
      // Two turns of the event loop make sure file events already queued have been seen.
      await new Promise((done) => setImmediate(done));
      await new Promise((done) => setImmediate(done));
      if (!dirty && watching && last) return last;
    } else if (watchEnabled && !watchProblem && last) {
      // Second scan: watch the folders seen so far before polling, so nothing changes unseen.
      watching = true;
      await syncWatchers(lastWalked, createTimeSlice(SLICE_MS));
    }
    dirty = false;
    return scanNow();
  }

  // A skill's folder may have been swapped for a link since discovery: check it every time.
  function allowedFolder(skill: SkillMetadata): string {
    const folder = skillDirectory(skill);
    const real = realOrResolved(folder);
    if (!isAllowed(real)) throw new SkillsetError("outside-skill", `the skill's folder ${folder} now resolves to ${real}, outside the allowed folders; refused`);
    return folder;
  }

  return {
    specificationVersion: "v1",
    id,
    scan() {
      running ??= scanOnce().finally(() => {
        running = undefined;
      });
      return running;
    },
    async readSkill(skill) {
      const file = skill.path;
      allowedFolder(skill);
      try {
        return readSkillFile(file);
      } catch (error) {
        if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
        const target = realOrResolved(file);
        if (!isAllowed(target)) throw new SkillsetError("symlink-escape", `${file} is a symbolic link to ${target}, outside the allowed folders`);
        return readSkillFile(target);
      }
    },
    async listFiles(skill, limits) {
      return listSkillFiles(allowedFolder(skill), limits);
    },
    async readFile(skill, relativePath, maxBytes) {
      return readContainedFile(allowedFolder(skill), relativePath, maxBytes);
    },
    close() {
      stopWatching();
    },
  };
}

/**
 * Lists the regular files below a skill folder, breadth-first in name order. Symlinks count
 * only when their target stays inside the skill folder; FIFOs, sockets and devices are left out.
 */
export function listSkillFiles(directory: string, limits: FileListLimits): SkillFileListing {
  const base = realOrResolved(directory);
  const files: SkillFile[] = [];
  let truncated = false;
  let level: Array<{ path: string; relativePath: string }> = [{ path: directory, relativePath: "" }];
  for (let depth = 0; depth <= limits.maxDepth && level.length > 0 && !truncated; depth++) {
    const nextLevel: typeof level = [];
    for (const folder of level) {
      let names: string[];
      try {
        names = readdirSync(folder.path).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(folder.path, name);
        const relativePath = folder.relativePath ? `${folder.relativePath}/${name}` : name;
        if (depth === 0 && (name === "SKILL.md" || name === "skill.md")) continue;
        const stat = containedStat(path, base);
        if (!stat) continue;
        if (stat.isDirectory()) {
          if (depth < limits.maxDepth && !SKIPPED_FOLDERS.has(name)) nextLevel.push({ path, relativePath });
          else if (depth >= limits.maxDepth) truncated = true;
          continue;
        }
        if (!stat.isFile()) continue;
        if (files.length >= limits.maxFiles) {
          truncated = true;
          break;
        }
        files.push({ path, relativePath, size: stat.size });
      }
      if (truncated && files.length >= limits.maxFiles) break;
    }
    level = nextLevel;
  }
  return { files, truncated };
}

/**
 * Reads `relativePath` below `directory` without leaving it: every symlink on the way must
 * resolve inside the folder, the file must be regular (never a FIFO or device, which could
 * block or never end) and at most `maxBytes`.
 */
export function readContainedFile(directory: string, relativePath: string, maxBytes: number): Uint8Array {
  const base = realOrResolved(directory);
  const path = `${directory}/${relativePath}`;
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    throw new SkillsetError("not-found", `${relativePath} does not exist in the skill's folder`);
  }
  const inside = relative(base, target);
  if (inside === "" || inside.startsWith("..") || resolve(base, inside) !== target) {
    throw new SkillsetError("outside-skill", `${relativePath} resolves outside the skill's folder; refused`);
  }
  const stat = statSync(target);
  if (!stat.isFile()) throw new SkillsetError("not-a-file", `${relativePath} is not a regular file`);
  if (stat.size > maxBytes) throw new SkillsetError("too-large", `${relativePath} is larger than ${maxBytes} bytes`);
  return readSkillFile(target, maxBytes);
}

function containedStat(path: string, base: string) {
  try {
    const link = lstatSync(path);
    if (!link.isSymbolicLink()) return link;
    const target = realpathSync(path);
    const inside = relative(base, target);
    if (inside === "" || inside.startsWith("..") || resolve(base, inside) !== target) return undefined;
    return statSync(target);
  } catch {
    return undefined;
  }
}

function sameEntries(before: Map<string, CachedSkill>, after: Map<string, CachedSkill>): boolean {
  if (before.size !== after.size) return false;
  for (const [directory, entry] of after) if (before.get(directory) !== entry) return false;
  return true;
}

function sameMessages(before: readonly Diagnostic[], after: readonly Diagnostic[]): boolean {
  return before.length === after.length && before.every((diagnostic, index) => diagnostic.message === after[index]!.message);
}

function statStamp(file: string): string | undefined {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat && `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
