import { homedir } from "node:os";
import { join } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";

/**
 * Expands a leading `~` or `~/` to the home folder, as a shell does, so that a path written
 * `"~/.agents/skills"` in code or in quotes means what it says rather than a folder named `~`.
 * Other paths are returned unchanged. `~user` forms would need the user database, so they are
 * refused with a {@link SkillsetError} (`unsupported-path`) instead of being read as `./~user`.
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  if (path.startsWith("~")) {
    throw new SkillsetError(
      "unsupported-path",
      `Cannot use ${path}: only ~ and ~/ (your home folder) are expanded; write the folder's full path`,
    );
  }
  return path;
}
