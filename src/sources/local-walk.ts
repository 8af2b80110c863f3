import { readdirSync } from "node:fs";
import {
  listChildFolders,
  SKIPPED_FOLDERS,
  type ChildFolderOptions,
  type ChildFolders,
} from "./local-child-folders.js";
import type { TimeSlice } from "../core/time-slice.js";

/** Inputs of {@link walkLocalFolders}. */
export interface LocalWalkOptions extends ChildFolderOptions {
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
  /** Reads `directory` (whose real path is `realDirectory`, whose name is `name`) as a skill folder; true when it is one, so the walk does not enter it. */
  readSkillAt(directory: string, realDirectory: string, name: string): boolean;
  /** Called before `readSkillAt` with the list its folder comes from and its index there, when it is the first of its list or follows a skill folder (see the local skill reader's `readAhead`). */
  readAhead(folders: readonly string[], at: number): void;
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
  // `ahead`: the folder offered last from that list was a skill folder (see walkSlice).
  readonly #stack: Array<{ children: ChildFolders; next: number; depth: number; ahead: boolean }> = [];
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
    const children = await listChildFolders(directory, realDirectory, depth === 0, this.#options, this.#slice);
    this.#stack.push({ children, next: 0, depth, ahead: true });
  }

  // Walks until the slice is used up (false), a folder is to be entered (listing it may pause),
  // or the walk is complete (true).
  walkSlice(): boolean | { path: string; real: string; depth: number } {
    const stack = this.#stack;
    const slice = this.#slice;
    const { readSkillAt, readAhead, recursive, maxDepth } = this.#options;
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
      // Read ahead in a list of skill folders: a list of folders that hold skills deeper (a
      // checkout of many repositories) would have its run read again after each descent.
      if (folder.ahead) readAhead(children.paths, at);
      folder.ahead = readSkillAt(path, real, children.names[at]!);
      if (folder.ahead) continue;
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
const _layoutKeeper = new FolderWalk(
  {
    root: "",
    realRoot: "",
    recursive: false,
    maxDepth: 0,
    maxDirectories: 0,
    allowedRoots: [],
    readSkillAt: () => false,
    readAhead: () => {},
    warn: () => {},
    skip: () => {},
  },
  { due: () => true, pause: async () => {} },
);

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
