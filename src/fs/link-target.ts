import { readlinkSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";

// One realpath(3) call rather than Node's JavaScript walk, which makes an lstat per path segment:
// a skill's folder is resolved again on every load and read. (Windows keeps the JavaScript one,
// which handles its drive and network paths as the rest of Node does.)
const realPath = process.platform === "win32" ? realpathSync : realpathSync.native;

/** `path` with every symlink resolved, or made absolute when it cannot be resolved (missing, a loop). */
export function realOrResolved(path: string): string {
  try {
    return realPath(path);
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
    return realPath(link);
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
