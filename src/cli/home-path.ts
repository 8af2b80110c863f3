import { SkillsetError } from "../errors/skillset-error.js";
import { expandHome } from "../fs/expand-home.js";
import { CliError } from "./cli-error.js";

/**
 * A path argument with a leading `~` or `~/` expanded to the home folder, for when no shell did
 * it (`--dir=~/skills`, quoted arguments); `~user` is a usage error naming the path.
 */
export function homePath(path: string): string {
  try {
    return expandHome(path);
  } catch (error) {
    if (SkillsetError.isInstance(error)) throw new CliError("usage", error.message);
    throw error;
  }
}
