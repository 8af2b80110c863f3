import { readdir, readdirSync, statSync, type Dirent } from "node:fs";
import { SkillsetError } from "../errors/skillset-error.js";
import { linkTarget } from "../fs/link-target.js";
import { isInsideAllowedRoots } from "./allowed-roots.js";
import type { TimeSlice } from "./time-slice.js";

/** Folders never searched for skills, nor listed among a skill's files. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);

/** Inputs of {@link walkLocalFolders}. */
export interface LocalWalkOptions {
  /** The folder to walk; the caller has found it is no skill folder itself. */
  root: string;
  /** The real path of `root` (every symlink resolved). */
  realRoot: string;
  /** Descend into folders below the root's children, not only look at those children. */
  recursive: boolean;
  /** Deepest folder level entered when `recursive` (the root is level 0); a `depth-limit` warning says when folders below it were left out. */
  maxDepth: number;
  /** Folders entered at most below the root; a `scan-limit` warning says when the walk stopped. */
  maxDirectories: number;
  /** Real folders that symlinked folders may point into; other links are skipped with an error. */
  allowedRoots: readonly string[];
  /** Reads `directory` (whose real path is `realDirectory`, whose name is `name`) as a skill folder; true when it is one, so the walk does not enter it. */
  readSkillAt(directory: string, realDirectory: string, name: string): boolean;
  /** Reports a folder that was left out (`unreadable-folder`, `scan-limit`, `depth-limit`). */
  warn(file: string, code: string, message: string): void;
  /** Reports a symbolic link that was not followed (`symlink-escape`, `symlink-dangling`, `symlink-loop`): a skipped entry. */
  skip(file: string, code: string, message: string): void;
}

/**
 * A folder's child folders to offer or enter: at each index, a child's path as reached, its real
 * path and its name. (Three arrays rather than an object per child: a walk keeps them all until
 * it leaves the folder, and a library's folder holds thousands.)
 */
interface ChildFolders {
  paths: string[];
  reals: string[];
  names: string[];
}

/**
 * Walks `root` depth-first in name order, offering every child folder to `readSkillAt` and
 * entering those that are no skill folders (when `recursive`, down to `maxDepth`, for at most
 * `maxDirectories` folders). A folder reached twice (through symlinks) is entered once.
 * Pauses whenever `slice` is due. Returns the folders entered, the root first.
 */
export async function walkLocalFolders(options: LocalWalkOptions, slice: TimeSlice): Promise<string[]> {
  const { root, realRoot, maxDepth, warn } = options;
  const walk = new FolderWalk(options, slice);
  await walk.enter(root, realRoot, 0);
  for (let step = walk.walkSlice(); step !== true; step = walk.walkSlice()) {
    if (step === false) await slice.pause();
    else await walk.enter(step.path, step.real, step.depth);
  }
  const { cut } = walk;
  if (cut.length > 0) {
    const others = cut.length > 1 ? ` and ${cut.length - 1} other ${cut.length === 2 ? "folder" : "folders"}` : "";
    warn(
      root,
      "depth-limit",
      `Stopped scanning ${root} at depth ${maxDepth}: the folders below ${cut[0]}${others} were not searched; skills there may be missing`,
    );
  }
  return walk.walked;
}

// One walk's state. A class rather than closures made per walk, so that the loop that reads the
// skill folders is one function for every scan and keeps its optimised code from one to the next.
class FolderWalk {
  /** The folders entered, the root first. */
  readonly walked: string[] = [];
  /** Folders left out at the depth limit that hold folders. */
  readonly cut: string[] = [];
  readonly #visited = new Set<string>();
  // A depth-first walk in sorted order, kept on an explicit stack rather than in recursive
  // async calls, so the work between pauses runs as plain (optimised) synchronous code.
  readonly #stack: Array<{ children: ChildFolders; next: number; depth: number }> = [];
  readonly #options: LocalWalkOptions;
  readonly #slice: TimeSlice;
  #directoryBudget: number;

  constructor(options: LocalWalkOptions, slice: TimeSlice) {
    this.#options = options;
    this.#slice = slice;
    this.#directoryBudget = options.maxDirectories;
  }

  async enter(directory: string, realDirectory: string, depth: number): Promise<void> {
    if (this.#visited.has(realDirectory)) return;
    this.#visited.add(realDirectory);
    this.walked.push(directory);
    const children = await childDirectories(directory, realDirectory, depth === 0, this.#options, this.#slice);
    this.#stack.push({ children, next: 0, depth });
  }

  // Walks until the slice is used up (false), a folder is to be entered (listing it may pause),
  // or the walk is complete (true).
  walkSlice(): boolean | { path: string; real: string; depth: number } {
    const stack = this.#stack;
    const slice = this.#slice;
    const { readSkillAt, recursive, maxDepth } = this.#options;
    while (stack.length > 0) {
      if (slice.due()) return false;
      const folder = stack[stack.length - 1]!;
      const { children } = folder;
      if (folder.next === children.paths.length) {
        stack.pop();
        continue;
      }
      const at = folder.next++;
      const path = children.paths[at]!;
      const real = children.reals[at]!;
      if (readSkillAt(path, real, children.names[at]!)) continue;
      if (!recursive) continue;
      if (folder.depth + 1 >= maxDepth) {
        // Only at the depth limit: a folder left out matters when it holds folders.
        if (holdsFolders(path)) this.cut.push(path);
        continue;
      }
      if (--this.#directoryBudget < 0) {
        if (this.#directoryBudget === -1) {
          const { root, maxDirectories } = this.#options;
          this.#options.warn(
            root,
            "scan-limit",
            `Stopped scanning ${root} after ${maxDirectories} folders; skills below may be missing`,
          );
        }
        continue;
      }
      return { path, real, depth: folder.depth + 1 };
    }
    return true;
  }
}

// V8 drops the optimised code that reads this class's objects once none is left (after every
// scan, at the next garbage collection), and the next scan starts unoptimised. One object kept
// for the life of the process keeps their layout, and the code.
const NO_WALK: LocalWalkOptions = {
  root: "",
  realRoot: "",
  recursive: false,
  maxDepth: 0,
  maxDirectories: 0,
  allowedRoots: [],
  readSkillAt: () => false,
  warn: () => {},
  skip: () => {},
};
const _layoutKeeper = new FolderWalk(NO_WALK, { due: () => true, pause: async () => {} });

// The folders directly inside `directory`, sorted, without skipped names; symlinks only when
// their real target is a folder inside the allowed roots (others are reported). A large folder is
// gone through in slices: 100,000 entries held the event loop for 30 ms or more.
async function childDirectories(
  directory: string,
  realDirectory: string,
  isRoot: boolean,
  options: LocalWalkOptions,
  slice: TimeSlice,
): Promise<ChildFolders> {
  const children = new ChildList(directory, realDirectory, options);
  let entries: Dirent[];
  try {
    const listing = listFolder(directory, isRoot);
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
function firstOutOfOrder(entries: readonly Dirent[], from: number, slice: TimeSlice): number {
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
  readonly #options: LocalWalkOptions;

  constructor(directory: string, realDirectory: string, options: LocalWalkOptions) {
    this.#realIsPath = realDirectory === directory;
    this.#prefix = `${directory}/`;
    this.#realDirectory = realDirectory;
    this.#options = options;
  }

  // Adds the folders among `entries` from `from` on; returns where the slice ran out (or the end).
  add(entries: readonly Dirent[], from: number, slice: TimeSlice): number {
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

// Kept for the life of the process, as the walk's keeper above is: `add` keeps its optimised code.
const _childListKeeper = new ChildList("", "", NO_WALK);

// A large folder's entries (over 1 MiB of directory, some 30,000 entries on ext4) are listed in
// libuv's thread pool: one readdirSync of a folder of 100,000 skills held the event loop for
// 200 ms. Smaller ones (by the folder's own size, which grows with its entries on the usual file
// systems) synchronously: a thread-pool round trip per folder made a recursive scan of the corpus
// half again as slow, and 10,000 entries take about 20 ms. Only a source's own folder is weighed
// (a stat per folder cost a recursive scan 10%): a library's skills sit there. Node sorts either way, so the
// sort that follows is one pass.
const LARGE_FOLDER_BYTES = 1024 * 1024;

function listFolder(directory: string, isRoot: boolean): Dirent[] | Promise<Dirent[]> {
  let large = false;
  try {
    large = isRoot && statSync(directory).size > LARGE_FOLDER_BYTES;
  } catch {
    // readdirSync says what is wrong.
  }
  if (!large) return readdirSync(directory, { withFileTypes: true });
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

// Whether `directory` holds a folder (or a link, which may be one) the walk would enter.
function holdsFolders(directory: string): boolean {
  try {
    return readdirSync(directory, { withFileTypes: true }).some(
      (entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !SKIPPED_FOLDERS.has(entry.name),
    );
  } catch {
    return false;
  }
}
