import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { compareWithLock, type ChangedFiles } from "./compare-with-lock.js";
import { installedSkillFolders, installFolderName, INSTALLER_SKILL_FOLDERS } from "./installed-skill-folders.js";
import { readSkillsLock, type SkillsLock } from "./read-skills-lock.js";

/** Options of {@link verifySkillsLock}. */
export interface VerifySkillsLockOptions {
  /** The lockfile. @default "skills-lock.json" in the working folder */
  lockfile?: string;
  /**
   * The skills folders to look in. @default the project's installer folders, next to the
   * lockfile: `.agents/skills`, then each agent's (`.claude/skills`, `.codex/skills`, …)
   */
  locations?: readonly string[];
}

/** One installed copy of a locked skill, checked. */
export interface InstalledSkillCheck {
  /** Its path in a skills folder (links not resolved). */
  path: string;
  status: "ok" | "modified" | "refused";
  /** Its hash now (not with `refused`). */
  hash?: string;
  /** With `modified`, the files that differ, when they can be told (see `note` otherwise). */
  files?: ChangedFiles;
  /** Why files are not named, or why the folder was refused (a link leading out, …). */
  note?: string;
}

/** One lockfile entry, checked: `ok` only when it is installed and every copy matches. */
export interface LockedSkillCheck {
  name: string;
  status: "ok" | "modified" | "missing" | "refused";
  /** The hash the lockfile records. */
  lockedHash: string;
  installed: InstalledSkillCheck[];
  /** With `missing` or `refused`, why. */
  note?: string;
}

/** What {@link verifySkillsLock} found. */
export interface SkillsLockReport {
  /** The lockfile, absolute. */
  lockfile: string;
  /** True when every entry is `ok` and no installed skill is unlisted. */
  ok: boolean;
  skills: LockedSkillCheck[];
  /** Installed skill folders that no entry of the lockfile accounts for. */
  unlisted: Array<{ path: string }>;
}

/**
 * Checks what is installed against a `skills-lock.json`, as the `skills` CLI computes its hashes:
 * for each entry, every installed copy in `locations` (links followed as local sources follow
 * them) is hashed and compared. Throws `invalid-lockfile` for a lockfile that cannot be used.
 */
export function verifySkillsLock(options: VerifySkillsLockOptions = {}): SkillsLockReport {
  const file = resolve(options.lockfile ?? "skills-lock.json");
  const lock = readSkillsLock(file);
  const locations = (options.locations ?? INSTALLER_SKILL_FOLDERS.map((folder) => join(dirname(file), folder))).map(
    (location) => resolve(location),
  );
  const skills = [...lock.skills.keys()].sort().map((name) => checkEntry(lock, name, locations));
  const unlisted = unlistedFolders(lock, locations);
  return {
    lockfile: file,
    ok: unlisted.length === 0 && skills.every((skill) => skill.status === "ok"),
    skills,
    unlisted,
  };
}

function checkEntry(lock: SkillsLock, name: string, locations: readonly string[]): LockedSkillCheck {
  const entry = lock.skills.get(name)!;
  const base = { name, lockedHash: entry.computedHash };
  const folderName = installFolderName(name);
  if (!folderName)
    return {
      ...base,
      status: "refused",
      installed: [],
      note: `the entry's name ${JSON.stringify(name)} is a path, not a skill name; nothing is looked up for it`,
    };
  const installed = installedSkillFolders(folderName, locations).map((folder): InstalledSkillCheck => {
    if ("refused" in folder) return { path: folder.path, status: "refused", note: folder.refused };
    try {
      const { status, hash, files, note } = compareWithLock(folder.real, name, entry, lock);
      return { path: folder.path, status, hash, ...(files ? { files } : {}), ...(note ? { note } : {}) };
    } catch (error) {
      return { path: folder.path, status: "refused", note: `it cannot be read: ${(error as Error).message}` };
    }
  });
  if (installed.length === 0)
    return {
      ...base,
      status: "missing",
      installed,
      note: `no folder named ${folderName} with a SKILL.md in ${locations.length === 1 ? locations[0] : "the skills folders"}`,
    };
  const worst =
    installed.find((copy) => copy.status === "refused") ?? installed.find((copy) => copy.status === "modified");
  return { ...base, status: worst?.status ?? "ok", installed };
}

// Skill folders (with a SKILL.md) in the locations whose name no lockfile entry installs to.
function unlistedFolders(lock: SkillsLock, locations: readonly string[]): Array<{ path: string }> {
  const listed = new Set([...lock.skills.keys()].map(installFolderName));
  const unlisted: Array<{ path: string }> = [];
  for (const location of locations) {
    let names: string[];
    try {
      names = readdirSync(location).sort();
    } catch {
      continue;
    }
    for (const name of names)
      if (!listed.has(name) && existsSync(join(location, name, "SKILL.md")))
        unlisted.push({ path: join(location, name) });
  }
  return unlisted;
}
