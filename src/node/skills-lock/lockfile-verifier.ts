import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillVerification } from "../../core/engine/skill-engine-types.js";
import { skillDirectory, type SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import { compareWithLock } from "./compare-with-lock.js";
import { installFolderName } from "./installed-skill-folders.js";
import { readSkillsLock, type SkillsLock, type SkillsLockEntry } from "./read-skills-lock.js";
import { skillFolderStamp } from "./skill-folder-hash.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";

/**
 * The `lockfile` option of every host: a `skills-lock.json` path (then `mode` is `"refuse"`), or
 * the path and what to do with a skill that does not match it or is not listed: `"refuse"` it, or
 * load it and `"warn"` (a `skill_unverified` event either way).
 */
export type LockfileOption = string | { path: string; mode?: "refuse" | "warn" };

// File times move in clock ticks (a few milliseconds on Linux), so a write in the same tick as the
// last change leaves the stamp as it was: a folder changed this recently is hashed again, as git
// treats "racily clean" files.
const SETTLED_MS = 2000;

interface VerdictCache {
  stamp: string;
  lockStamp: string;
  verdict: SkillVerification | undefined;
}

export const LOCKFILE_OPTIONS = { path: true, mode: true } as const satisfies KnownOptions<
  Exclude<LockfileOption, string>
>;

/**
 * A `verifySkill` for the engine that checks each skill's folder against a `skills-lock.json` as
 * the `skills` CLI hashes it. The lockfile is read now, so a missing or malformed one fails here
 * (`invalid-lockfile`, naming the file and the problem), and again whenever it changes. A folder
 * is hashed again only when the stamps of its files (or the lockfile's) changed since its last
 * check, or changed within the last two seconds, so a change on disk, a link swapped in
 * included, is caught at the next load.
 */
export function lockfileVerifier(option: LockfileOption): (skill: SkillMetadata) => SkillVerification | undefined {
  refuseUnknownOptions("lockfileVerifier", option, LOCKFILE_OPTIONS);
  const path = resolve(typeof option === "string" ? option : option.path);
  const refuse = typeof option === "string" || option.mode !== "warn";
  let lock: SkillsLock | Error = readSkillsLock(path);
  let lockStamp = fileStamp(path);
  const cache = new Map<string, VerdictCache>();
  const verdict = (reason: string): SkillVerification => ({ refuse, reason });
  return (skill) => {
    const stamp = fileStamp(path);
    if (stamp !== lockStamp) {
      lockStamp = stamp;
      lock = readLock(path);
    }
    if (lock instanceof Error) return verdict(lock.message);
    const folder = skillDirectory(skill);
    if (!existsSync(folder))
      return verdict(`its folder ${folder} is not on this machine, so it cannot be checked against ${path}`);
    const found = entryFor(lock, skill.name);
    if (!found) return verdict(`it is not listed in ${path}`);
    const key = `${skill.name}\0${folder}`;
    const folderStamp = skillFolderStamp(folder);
    const cached = cache.get(key);
    if (cached && folderStamp && cached.stamp === folderStamp.stamp && cached.lockStamp === lockStamp)
      return cached.verdict;
    const result = check(folder, found, lock, path);
    const outcome = result === undefined ? undefined : verdict(result);
    if (folderStamp && Date.now() - folderStamp.newestChangeMs > SETTLED_MS)
      cache.set(key, { stamp: folderStamp.stamp, lockStamp, verdict: outcome });
    else cache.delete(key);
    return outcome;
  };
}

// The reason the folder does not match, or undefined when it does.
function check(
  folder: string,
  found: { name: string; entry: SkillsLockEntry },
  lock: SkillsLock,
  path: string,
): string | undefined {
  let comparison;
  try {
    comparison = compareWithLock(folder, found.name, found.entry, lock);
  } catch (error) {
    return `its folder ${folder} cannot be read to check it against ${path} (${(error as Error).message})`;
  }
  if (comparison.status === "ok") return undefined;
  const { files, note } = comparison;
  const named = files
    ? [
        ...files.changed.map((file) => `${file} changed`),
        ...files.added.map((file) => `${file} added`),
        ...files.removed.map((file) => `${file} removed`),
      ]
    : [];
  const detail = named.length > 0 ? named.join(", ") : `hash ${comparison.hash}, locked ${found.entry.computedHash}`;
  return `its files differ from ${path} (${detail}${note ? `; ${note}` : ""})`;
}

// The entry of `name`: by the name the CLI recorded, else by the folder name it installs to.
function entryFor(lock: SkillsLock, name: string): { name: string; entry: SkillsLockEntry } | undefined {
  const exact = lock.skills.get(name);
  if (exact) return { name, entry: exact };
  const folderName = installFolderName(name);
  for (const [key, entry] of lock.skills)
    if (folderName !== undefined && installFolderName(key) === folderName) return { name: key, entry };
  return undefined;
}

function readLock(path: string): SkillsLock | Error {
  try {
    return readSkillsLock(path);
  } catch (error) {
    return SkillsetError.isInstance(error) ? error : new Error(String(error));
  }
}

function fileStamp(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs}`;
  } catch {
    return "missing";
  }
}
