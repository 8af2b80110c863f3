import { readlinkSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";

/** `path` with every symlink resolved, or made absolute when it cannot be resolved (missing, a loop). */
export function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The real target of the symbolic link `link`. Throws a {@link SkillsetError} naming the link
 * when it cannot be followed: `symlink-dangling` (its target does not exist), `symlink-loop`,
 * or `cannot-read`.
 */
export function linkTarget(link: string): string {
  try {
    return realpathSync(link);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new SkillsetError(
        "symlink-dangling",
        `${link} is a symbolic link whose target does not exist (${linkText(link)})`,
        { cause: error },
      );
    }
    if (code === "ELOOP")
      throw new SkillsetError("symlink-loop", `${link} is a symbolic link that leads back to itself (a loop)`, {
        cause: error,
      });
    throw new SkillsetError("cannot-read", `Cannot follow the symbolic link ${link}: ${code ?? String(error)}`, {
      cause: error,
    });
  }
}

// What a link says it points to, for messages; the link may have gone meanwhile.
function linkText(link: string): string {
  try {
    return `it points to ${readlinkSync(link)}`;
  } catch {
    return "it is gone";
  }
}
