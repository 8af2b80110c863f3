import { readdir, readdirSync, statSync, type Dirent } from "node:fs";
import { SkillsetError } from "../errors/skillset-error.js";
import { linkTarget } from "../fs/link-target.js";
import { isInsideAllowedRoots } from "./allowed-roots.js";
import { listFolderInWorker, type FolderEntry } from "./list-folder-in-worker.js";
import type { TimeSlice } from "../core/time-slice.js";

/** Folders never searched for skills, nor listed among a skill's files. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);

/**
 * A folder's child folders to offer or enter: at each index, a child's path as reached, its real
 * path and its name. (Three arrays rather than an object per child: a walk keeps them all until
 * it leaves the folder, and a library's folder holds thousands.)
 */
export interface ChildFolders {
  paths: string[];
  reals: string[];
  names: string[];
}

/** What listing a folder's child folders needs of a walk: where links may lead, and where problems go. */
export interface ChildFolderOptions {
  /** Real folders that symlinked folders may point into; other links are skipped with an error. */
  allowedRoots: readonly string[];
  /** Reports a folder that was left out (`unreadable-folder`, `scan-limit`, `depth-limit`). */
  warn(file: string, code: string, message: string): void;
  /** Reports a symbolic link that was not followed (`symlink-escape`, `symlink-dangling`, `symlink-loop`): a skipped entry. */
  skip(file: string, code: string, message: string): void;
}

/**
 * The folders directly inside `directory`, sorted by name, without skipped names; symlinks only
 * when their real target is a folder inside the allowed roots (others are reported). A large
 * folder is gone through in slices: 100,000 entries held the event loop for 30 ms or more.
 */
export async function listChildFolders(
  directory: string,
  realDirectory: string,
  isRoot: boolean,
  options: ChildFolderOptions,
  slice: TimeSlice,
): Promise<ChildFolders> {
  const children = new ChildList(directory, realDirectory, options);
  let entries: FolderEntry[];
  try {
    const listing = listFolder(directory, isRoot, slice);
    if (Array.isArray(listing)) entries = listing;
    else {
      entries = await listing;
      // Node made an object per entry in this I/O callback, a slice of its own. Two pauses, since
      // libuv runs the first one's callback before the timers get another turn.
      await slice.pause();
      await slice.pause();
    }
  } catch (error) {
    options.warn(
      directory,
      "unreadable-folder",
      `Cannot list ${directory}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
    return children;
  }
  // Node lists a folder in byte order on Unix (libuv sorts by strcmp), which is the order of
  // `<` on names but for astral characters: checked, and sorted only when out of order.
  for (let at = 1; at !== entries.length && at !== -1;) {
    at = firstOutOfOrder(entries, at, slice);
    if (at === -1) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    else if (at !== entries.length) await slice.pause();
  }
  for (let at = 0; at !== entries.length;) {
    at = children.add(entries, at, slice);
    if (at !== entries.length) await slice.pause();
  }
  return children;
}

// Entries between two checks of the slice: a check reads the clock, an entry costs far less.
const ENTRIES_PER_CHECK = 256;

// Compares names from `from` on: -1 at the first out of order, else where the slice ran out (or
// the end). Named entries are unique in a folder, so order is strict.
function firstOutOfOrder(entries: readonly FolderEntry[], from: number, slice: TimeSlice): number {
  for (let at = from; at < entries.length; at++) {
    if (entries[at - 1]!.name >= entries[at]!.name) return -1;
    if (at % ENTRIES_PER_CHECK === 0 && slice.due()) return at + 1;
  }
  return entries.length;
}

// A folder's child folders as they are found (see ChildFolders). A class, so that `add`, which
// goes through every entry, is one function for every folder and scan.
class ChildList implements ChildFolders {
  readonly paths: string[] = [];
  readonly reals: string[] = [];
  readonly names: string[] = [];
  // Usually nothing on the way is a link: then a child's real path is its path, the same string.
  readonly #realIsPath: boolean;
  // One string for the folder and its `/`, shared by every child's path (each child then adds one piece, not two).
  readonly #prefix: string;
  readonly #realDirectory: string;
  readonly #options: ChildFolderOptions;

  constructor(directory: string, realDirectory: string, options: ChildFolderOptions) {
    this.#realIsPath = realDirectory === directory;
    this.#prefix = `${directory}/`;
    this.#realDirectory = realDirectory;
    this.#options = options;
  }

  // Adds the folders among `entries` from `from` on; returns where the slice ran out (or the end).
  add(entries: readonly FolderEntry[], from: number, slice: TimeSlice): number {
    const { paths, reals, names } = this;
    const prefix = this.#prefix;
    // An index, not for...of: this loop runs once per scan, mostly before the JIT has compiled
    // it, and the interpreter allocates an iterator result per entry.
    for (let at = from; at < entries.length;) {
      const entry = entries[at++]!;
      const name = entry.name;
      if (!SKIPPED_FOLDERS.has(name)) {
        const path = prefix + name;
        // A real folder inside a real folder: its real path costs no system call.
        if (entry.isDirectory()) {
          paths.push(path);
          reals.push(this.#realIsPath ? path : `${this.#realDirectory}/${name}`);
          names.push(name);
        } else if (entry.isSymbolicLink()) this.#addLink(path, name);
      }
      if (at % ENTRIES_PER_CHECK === 0 && slice.due()) return at;
    }
    return entries.length;
  }

  #addLink(path: string, name: string): void {
    const { allowedRoots, skip } = this.#options;
    let real: string;
    try {
      real = linkTarget(path);
    } catch (error) {
      if (!SkillsetError.isInstance(error)) throw error;
      skip(path, error.code, `${error.message}; skipped`);
      return;
    }
    if (!isDirectory(real)) return;
    if (isInsideAllowedRoots(real, allowedRoots)) {
      this.paths.push(path);
      this.reals.push(real);
      this.names.push(name);
    } else skip(path, "symlink-escape", `${path} is a symbolic link to ${real}, outside the allowed folders; skipped`);
  }
}

// V8 drops the optimised code that reads this class's objects once none is left (after every
// scan, at the next garbage collection), and the next scan starts unoptimised. One object kept
// for the life of the process keeps their layout, and the code.
const _layoutKeeper = new ChildList("", "", { allowedRoots: [], warn: () => {}, skip: () => {} });

// A large folder's entries (over 512 KiB of directory, some 18,000 entries on ext4) are listed in
// libuv's thread pool: one readdirSync of a folder of 100,000 skills held the event loop for
// 200 ms. Smaller ones (by the folder's own size, which grows with its entries on the usual file
// systems) synchronously: 5 to 7 ms for 10,000 entries, and the thread pool's round trip and the
// pauses after it made cold discovery of 10,000 skills 6 ms (8%) slower; a round trip per folder
// made a recursive scan of the corpus half again as slow. Only a source's own folder is weighed
// (a stat per folder cost a recursive scan 10%): a library's skills sit there. Node sorts either
// way, so the check of the order that follows is one pass.
const LARGE_FOLDER_BYTES = 512 * 1024;
// Over 1 MiB (some 30,000 entries), even the thread pool's callback holds the event loop too long
// (see listFolderInWorker); a worker costs some 70 ms to start, so smaller folders stay as above.
const HUGE_FOLDER_BYTES = 1024 * 1024;

function listFolder(directory: string, isRoot: boolean, slice: TimeSlice): Dirent[] | Promise<FolderEntry[]> {
  let size = 0;
  try {
    if (isRoot) size = statSync(directory).size;
  } catch {
    // readdirSync says what is wrong.
  }
  if (size <= LARGE_FOLDER_BYTES) return readdirSync(directory, { withFileTypes: true });
  if (size > HUGE_FOLDER_BYTES) return listHugeFolder(directory, slice);
  return listInThreadPool(directory);
}

async function listHugeFolder(directory: string, slice: TimeSlice): Promise<FolderEntry[]> {
  return (await listFolderInWorker(directory, slice)) ?? listInThreadPool(directory);
}

function listInThreadPool(directory: string): Promise<Dirent[]> {
  return new Promise((resolve, reject) =>
    readdir(directory, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries))),
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
