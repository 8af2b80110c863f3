import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";

// The `skills` CLI's `computedHash` (skills 1.7.4, computeSkillFolderHash), computed identically:
// every regular file below the folder, `.git` and `node_modules` folders skipped at any depth,
// symbolic links inside skipped (they are neither files nor folders to its walk), paths relative
// with `/`, sorted with `localeCompare`, then sha256 over path and bytes of each, in that order,
// with no separator. The folder itself may be a link: its walk starts at the real folder.

/** Folders the `skills` CLI leaves out of a skill's hash, at any depth. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);

/** A skill folder as the lockfile's hash sees it, with what the hash cannot see. */
export interface SkillFolderDigest {
  /** The `skills` CLI's `computedHash` of the folder. */
  hash: string;
  /** Each hashed file's path relative to the folder (with `/`) and its own sha256, in hash order. */
  files: Map<string, string>;
  /** Symbolic links inside the folder: the CLI's hash skips them, so they are not covered by it. */
  links: string[];
}

/** The `skills` CLI's `computedHash` of `folder`, with per-file digests and the links it skips. */
export function digestSkillFolder(folder: string): SkillFolderDigest {
  const found: Array<{ path: string; content: Buffer }> = [];
  const links: string[] = [];
  collect(realpathSync(folder), "", found, links);
  found.sort((a, b) => a.path.localeCompare(b.path));
  const hash = createHash("sha256");
  const files = new Map<string, string>();
  for (const file of found) {
    hash.update(file.path);
    hash.update(file.content);
    files.set(file.path, createHash("sha256").update(file.content).digest("hex"));
  }
  return { hash: hash.digest("hex"), files, links: links.sort() };
}

function collect(
  folder: string,
  prefix: string,
  found: Array<{ path: string; content: Buffer }>,
  links: string[],
): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = prefix + entry.name;
    const full = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) collect(full, `${path}/`, found, links);
    } else if (entry.isFile()) found.push({ path, content: readFileSync(full) });
    else if (entry.isSymbolicLink()) links.push(path);
  }
}

/** A folder's fingerprint, and when the most recent change to it happened. */
export interface SkillFolderStamp {
  stamp: string;
  /** The newest ctime below the folder, in milliseconds since the epoch. */
  newestChangeMs: number;
}

/**
 * A cheap fingerprint of what is in `folder` now, without reading file contents: the real path of
 * the folder and, for every entry below it, its path, kind, inode, size, mtime and ctime. A write,
 * a rename or a link swapped in changes it (ctime cannot be set back by a user), so a verdict
 * stays valid while the fingerprint does, except for changes within the clock tick of the last
 * one: see `newestChangeMs`. `undefined` when the folder cannot be read.
 */
export function skillFolderStamp(folder: string): SkillFolderStamp | undefined {
  try {
    const real = realpathSync(folder);
    const parts: string[] = [real];
    const newest = { ns: 0n };
    stampEntries(real, "", parts, newest);
    return { stamp: parts.join("\n"), newestChangeMs: Number(newest.ns / 1_000_000n) };
  } catch {
    return undefined;
  }
}

function stampEntries(folder: string, prefix: string, parts: string[], newest: { ns: bigint }): void {
  for (const name of readdirSync(folder).sort()) {
    const full = join(folder, name);
    const stat = lstatSync(full, { bigint: true });
    const kind = stat.isDirectory() ? "d" : stat.isSymbolicLink() ? "l" : "f";
    parts.push(`${kind} ${prefix}${name} ${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs}`);
    if (stat.ctimeNs > newest.ns) newest.ns = stat.ctimeNs;
    if (kind === "d" && !SKIPPED_FOLDERS.has(name)) stampEntries(full, `${prefix}${name}/`, parts, newest);
  }
}
