import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { digestSkillFolder, type SkillFolderDigest } from "./skill-folder-hash.js";
import { installFolderName } from "./installed-skill-folders.js";
import type { SkillsLock, SkillsLockEntry } from "./read-skills-lock.js";

/** Which files of an installed folder differ from the folder the lockfile's hash was taken of. */
export interface ChangedFiles {
  changed: string[];
  added: string[];
  removed: string[];
}

/** An installed skill folder compared with its lockfile entry. */
export interface FolderComparison {
  status: "ok" | "modified";
  /** The folder's hash now, computed as the `skills` CLI computes `computedHash`. */
  hash: string;
  /** With `modified`, the files that differ, when the lockfile's source is at hand to tell. */
  files?: ChangedFiles;
  /** With `modified`, why the files are not named, or what else differs. */
  note?: string;
}

// The lockfile keeps one hash over the whole folder, so which file changed can be told only by
// comparing with a folder that still has that hash: a local source the skill was copied from.
const NO_FILE_LIST =
  "the lockfile records one hash over the whole folder, not one per file, and its source is not at hand to compare with, so the changed files cannot be named";

/** Compares the installed folder at `real` with `entry` of `lock`, naming changed files where it can. */
export function compareWithLock(
  real: string,
  name: string,
  entry: SkillsLockEntry,
  lock: SkillsLock,
): FolderComparison {
  const digest = digestSkillFolder(real);
  const links =
    digest.links.length > 0
      ? `it holds symbolic links the lockfile's hash does not cover (${digest.links.join(", ")})`
      : undefined;
  if (digest.hash === entry.computedHash && !links) return { status: "ok", hash: digest.hash };
  if (digest.hash === entry.computedHash) return { status: "modified", hash: digest.hash, note: links! };
  const source = lockedSourceFolder(name, entry, lock);
  if (!source)
    return { status: "modified", hash: digest.hash, note: links ? `${NO_FILE_LIST}; ${links}` : NO_FILE_LIST };
  return {
    status: "modified",
    hash: digest.hash,
    files: changedFiles(source, digest),
    ...(links ? { note: links } : {}),
  };
}

function changedFiles(source: SkillFolderDigest, installed: SkillFolderDigest): ChangedFiles {
  const changed: string[] = [];
  const added: string[] = [];
  for (const [path, sha] of installed.files) {
    const locked = source.files.get(path);
    if (locked === undefined) added.push(path);
    else if (locked !== sha) changed.push(path);
  }
  const removed = [...source.files.keys()].filter((path) => !installed.files.has(path));
  return { changed, added, removed };
}

/**
 * The digest of the folder a `local` entry was installed from, when it is still there and still
 * has the entry's hash: the lockfile's own record of each file. Looked for at the source, and at
 * `<source>/<name>` up to three folders down (where the CLI finds skills in a collection).
 */
function lockedSourceFolder(name: string, entry: SkillsLockEntry, lock: SkillsLock): SkillFolderDigest | undefined {
  const folderName = installFolderName(name);
  if (entry.sourceType !== "local" || !folderName) return undefined;
  const base = resolve(
    dirname(lock.file),
    entry.skillPath ? join(entry.source, dirname(entry.skillPath)) : entry.source,
  );
  for (const candidate of [base, ...foldersNamed(base, folderName, 3)]) {
    if (!existsSync(join(candidate, "SKILL.md"))) continue;
    try {
      const digest = digestSkillFolder(candidate);
      if (digest.hash === entry.computedHash) return digest;
    } catch {
      // A source folder that cannot be read names nothing.
    }
  }
  return undefined;
}

function foldersNamed(base: string, folderName: string, depth: number): string[] {
  if (depth === 0) return [];
  let entries;
  try {
    entries = readdirSync(base, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && entry.name !== "node_modules" && entry.name !== ".git")
    .flatMap((entry) => [
      ...(entry.name === folderName ? [join(base, entry.name)] : []),
      ...foldersNamed(join(base, entry.name), folderName, depth - 1),
    ]);
}
