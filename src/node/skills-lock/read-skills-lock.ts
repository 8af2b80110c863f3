import { readFileSync } from "node:fs";
import { parseSkillsLockFile, type SkillsLock } from "./parse-skills-lock.js";

export type { SkillsLock, SkillsLockEntry } from "./parse-skills-lock.js";

/**
 * Reads and checks the `skills-lock.json` at `file`. Throws an `invalid-lockfile` `SkillsetError`
 * naming the file and the problem (missing, not JSON, a version other than 1, an entry without a
 * sha256 `computedHash`), so a broken lockfile is never taken for an empty one.
 */
export function readSkillsLock(file: string): SkillsLock {
  return parseSkillsLockFile(file, (path) => readFileSync(path, "utf8"));
}
