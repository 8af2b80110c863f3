import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";
import type { FileListLimits, SkillFile, SkillFileListing } from "../core/skill-source.js";
import { realOrResolved } from "../fs/link-target.js";
import { SKIPPED_FOLDERS } from "./local-child-folders.js";
import { readBoundedFile } from "../fs/bounded-read.js";
import { isInsideFolder } from "../fs/path-inside.js";

/**
 * Lists the regular files below a skill folder, breadth-first in name order. Symlinks count
 * only when their target stays inside the skill folder; FIFOs, sockets and devices are left out.
 * `base`: the folder's real path, when the caller has just resolved it (a local source checks
 * it on every use), so it is not resolved twice.
 */
export function listSkillFiles(
  directory: string,
  limits: FileListLimits,
  base: string = realOrResolved(directory),
): SkillFileListing {
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
 * block or never end) and at most `maxBytes`. `base`: the folder's real path, as for
 * {@link listSkillFiles}.
 */
export function readContainedFile(
  directory: string,
  relativePath: string,
  maxBytes: number,
  base: string = realOrResolved(directory),
): Uint8Array {
  const path = `${directory}/${relativePath}`;
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    throw new SkillsetError("not-found", `${relativePath} does not exist in the skill's folder`);
  }
  if (!isStrictlyInside(base, target)) {
    throw new SkillsetError("outside-skill", `${relativePath} resolves outside the skill's folder; refused`);
  }
  const stat = statSync(target);
  if (!stat.isFile()) throw new SkillsetError("not-a-file", `${relativePath} is not a regular file`);
  if (stat.size > maxBytes) throw new SkillsetError("too-large", `${relativePath} is larger than ${maxBytes} bytes`);
  return readBoundedFile(target, maxBytes);
}

// The stat of `path`, following a symlink only when it resolves inside `base`; undefined otherwise.
function containedStat(path: string, base: string) {
  try {
    const link = lstatSync(path);
    if (!link.isSymbolicLink()) return link;
    const target = realpathSync(path);
    if (!isStrictlyInside(base, target)) return undefined;
    return statSync(target);
  } catch {
    return undefined;
  }
}

// Whether the real path `target` lies below the real folder `base` (not `base` itself).
function isStrictlyInside(base: string, target: string): boolean {
  return target !== base && isInsideFolder(base, target);
}
