import { readdirSync, statSync, type Dirent } from "node:fs";
import { isInsideAllowedRoots, realOrResolved } from "./allowed-roots.js";
import type { TimeSlice } from "./time-slice.js";

/** Folders never searched for skills, nor listed among a skill's files. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);

/** Inputs of {@link walkLocalFolders}. */
export interface LocalWalkOptions {
  /** The folder to walk; the caller has found it is no skill folder itself. */
  root: string;
  /** Descend into folders below the root's children, not only look at those children. */
  recursive: boolean;
  /** Deepest folder level entered when `recursive` (the root is level 0). */
  maxDepth: number;
  /** Folders entered at most below the root; a `scan-limit` warning says when the walk stopped. */
  maxDirectories: number;
  /** Real folders that symlinked folders may point into; other links are skipped with a warning. */
  allowedRoots: readonly string[];
  /** Reads `directory` as a skill folder; true when it is one, so the walk does not enter it. */
  readSkillAt(directory: string): boolean;
  /** Reports a folder that was left out (`unreadable-folder`, `symlink-escape`, `scan-limit`). */
  warn(file: string, code: string, message: string): void;
}

/**
 * Walks `root` depth-first in name order, offering every child folder to `readSkillAt` and
 * entering those that are no skill folders (when `recursive`, down to `maxDepth`, for at most
 * `maxDirectories` folders). A folder reached twice (through symlinks) is entered once.
 * Pauses whenever `slice` is due. Returns the folders entered, the root first.
 */
export async function walkLocalFolders(options: LocalWalkOptions, slice: TimeSlice): Promise<string[]> {
  const { root, recursive, maxDepth, maxDirectories, allowedRoots, readSkillAt, warn } = options;
  const walked: string[] = [];
  const visited = new Set<string>();
  let directoryBudget = maxDirectories;
  // A depth-first walk in sorted order, kept on an explicit stack rather than in recursive
  // async calls, so the work between pauses runs as plain (optimised) synchronous code.
  const stack: Array<{ children: string[]; next: number; depth: number }> = [];
  const enter = (directory: string, depth: number) => {
    const real = realOrResolved(directory);
    if (visited.has(real)) return;
    visited.add(real);
    walked.push(directory);
    stack.push({ children: childDirectories(directory, allowedRoots, warn), next: 0, depth });
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
      if (readSkillAt(child)) continue;
      if (!recursive || folder.depth + 1 >= maxDepth) continue;
      if (--directoryBudget < 0) {
        if (directoryBudget === -1) warn(root, "scan-limit", `Stopped scanning ${root} after ${maxDirectories} folders; skills below may be missing`);
        continue;
      }
      enter(child, folder.depth + 1);
    }
    return true;
  };

  enter(root, 0);
  while (!walkSlice()) await slice.pause();
  return walked;
}

// The folders directly inside `directory`, sorted, without skipped names and without symlinks
// that leave the allowed roots.
function childDirectories(directory: string, allowedRoots: readonly string[], warn: LocalWalkOptions["warn"]): string[] {
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
      if (isInsideAllowedRoots(target, allowedRoots)) children.push(child);
      else warn(child, "symlink-escape", `${child} is a symbolic link to ${target}, outside the allowed folders; skipped`);
    }
  }
  return children.sort();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
