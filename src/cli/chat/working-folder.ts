import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import { readBoundedFile } from "../../fs/bounded-read.js";
import { isInsideFolder } from "../../fs/path-inside.js";

/** Largest file the file tools read. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

// Folders that are never searched: version control and installed packages.
const SKIPPED_FOLDERS = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);

/** A path inside the working folder, resolved through every symlink. */
export interface InsidePath {
  /** The real path on disk. */
  real: string;
  /** The path relative to the working folder, with `/` separators (`.` for the folder itself). */
  shown: string;
  stat: Stats;
}

/**
 * A read-only view of one folder for the model's file tools: every path is resolved (symlinks
 * included) and refused unless it stays inside the folder, special files are never opened,
 * reads are size-capped.
 */
export interface WorkingFolder {
  readonly root: string;
  /** Resolves a path the model gave (relative to the folder, or absolute inside it). */
  resolve(path: string): InsidePath;
  /** The folders and regular files in `folder`, in name order (links leaving the folder left out). */
  entries(folder: InsidePath): Array<{ name: string; folder: boolean; size: number }>;
  /** The regular files below `start`, depth-first in name order, at most `limit` of them. */
  files(start: InsidePath, limit: number): { files: string[]; truncated: boolean };
  /** Reads a regular file of at most {@link MAX_READ_BYTES}. */
  read(path: InsidePath): Uint8Array;
}

/** Opens `root` (which must exist) as a {@link WorkingFolder}. */
export function openWorkingFolder(root: string): WorkingFolder {
  const base = realpathSync(root);
  const shownOf = (real: string) => relative(base, real).split(sep).join("/") || ".";
  const inside = (real: string) => isInsideFolder(base, real);

  // An entry's stat, through a symlink only when its target stays inside (and, with
  // `followFolders` false, is not a folder); undefined for anything else.
  const containedStat = (path: string, followFolders = true): Stats | undefined => {
    try {
      const stat = lstatSync(path);
      if (!stat.isSymbolicLink()) return stat;
      const target = realpathSync(path);
      if (!inside(target)) return undefined;
      const targetStat = statSync(target);
      return followFolders || !targetStat.isDirectory() ? targetStat : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    root: base,

    resolve(path) {
      if (path.includes("\0")) throw refusal(`'${path}' is not a valid path`);
      const requested = resolve(base, path);
      let real: string;
      try {
        real = realpathSync(requested);
      } catch {
        throw refusal(`${displayPath(base, requested)} does not exist`);
      }
      if (!inside(real))
        throw refusal(`${path} is outside the working folder ${base}; only files below it can be read`);
      return { real, shown: shownOf(real), stat: statSync(real) };
    },

    entries(folder) {
      const entries: Array<{ name: string; folder: boolean; size: number }> = [];
      for (const name of readdirSync(folder.real).sort()) {
        const stat = containedStat(join(folder.real, name));
        if (stat?.isDirectory()) entries.push({ name, folder: true, size: 0 });
        else if (stat?.isFile()) entries.push({ name, folder: false, size: stat.size });
      }
      return entries;
    },

    files(start, limit) {
      const files: string[] = [];
      let truncated = false;
      const walk = (folder: string) => {
        let names: string[];
        try {
          names = readdirSync(folder).sort();
        } catch {
          return;
        }
        for (const name of names) {
          if (files.length >= limit) {
            truncated = true;
            return;
          }
          const path = join(folder, name);
          // Linked folders are not followed, so a walk cannot loop.
          const stat = containedStat(path, false);
          if (stat?.isDirectory()) {
            if (!SKIPPED_FOLDERS.has(name)) walk(path);
          } else if (stat?.isFile()) {
            files.push(shownOf(path));
          }
        }
      };
      if (start.stat.isDirectory()) walk(start.real);
      else if (start.stat.isFile()) files.push(start.shown);
      return { files, truncated };
    },

    read(path) {
      try {
        return readBoundedFile(path.real, MAX_READ_BYTES);
      } catch (error) {
        if (!SkillsetError.isInstance(error)) throw error;
        if (error.code === "not-a-file") throw refusal(`${path.shown} is not a regular file`);
        if (error.code === "too-large") throw refusal(`${path.shown} is larger than ${MAX_READ_BYTES} bytes`);
        throw refusal(`${path.shown} cannot be read`);
      }
    },
  };
}

/** A refusal of a file tool: its message is the text the model gets. */
function refusal(message: string): SkillsetError {
  return new SkillsetError("file-refused", message);
}

function displayPath(base: string, path: string): string {
  return path === base || !isInsideFolder(base, path) ? path : relative(base, path).split(sep).join("/");
}
