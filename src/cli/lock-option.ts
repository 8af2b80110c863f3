import { SkillsetError } from "../errors/skillset-error.js";
import { readSkillsLock } from "../node/skills-lock/read-skills-lock.js";
import type { SkillVerification } from "../core/engine/skill-engine-types.js";
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

/**
 * Throws the terminal's refusal of a skill that `--lock <lock>` refuses (a model gets "continue
 * without it and tell the user"; a person gets the command that shows what changed).
 */
export function refuseUnlocked(verdict: SkillVerification | undefined, name: string, lock: string): void {
  if (!verdict?.refuse) return;
  throw new CliError(
    "refused",
    `Skill '${name}' is refused: ${verdict.reason}. Run \`skillset verify --lock ${lock}\` to see what changed; reinstall the skill, or update the lockfile if the change is yours.`,
  );
}
