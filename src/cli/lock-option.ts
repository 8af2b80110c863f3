import { SkillsetError } from "../errors/skillset-error.js";
import { readSkillsLock } from "../node/skills-lock/read-skills-lock.js";
import { CliError } from "./cli-error.js";
import { homePath } from "./home-path.js";

/**
 * `--lock <file>` of the commands that load skills: the lockfile's path for the hosts' `lockfile`
 * option (mode `refuse`), checked now so a broken one is an `invalid-lockfile` error up front.
 */
export function lockfileOption(lock: string | undefined): { lockfile: string } | Record<string, never> {
  if (lock === undefined) return {};
  const path = homePath(lock);
  try {
    readSkillsLock(path);
  } catch (error) {
    if (SkillsetError.isInstance(error) && error.code === "invalid-lockfile")
      throw new CliError("invalid-lockfile", error.message);
    throw error;
  }
  return { lockfile: path };
}
