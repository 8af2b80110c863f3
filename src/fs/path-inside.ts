import { resolve, sep, type PlatformPath } from "node:path";
import { isInsideResolvedFolder } from "./folder-prefix.js";

/** The part of `node:path` {@link isInsideFolder} uses: the platform's own, `path.posix` or `path.win32`. */
export type PathSyntax = Pick<PlatformPath, "resolve" | "sep">;

const PLATFORM: PathSyntax = { resolve, sep };

/**
 * Whether `path` is `folder` itself or lies below it: the one containment rule of skillset.
 *
 * - Lexical, on resolved absolute paths: both are resolved with `paths.resolve` first (a relative
 *   one against the working directory), which removes `.` and `..` segments and repeated or
 *   trailing separators, so `/a/b/../c` is inside `/a` and `/a/../b` is not. Symlinks are not
 *   followed; to judge where a path really leads, resolve it first (`realpathSync`,
 *   `realOrResolved`) and ask about the real paths of both.
 * - `folder` itself counts as inside; a caller that wants only what lies below checks
 *   `path !== folder` as well.
 * - Whole segments: `/a/b` is inside `/a`, `/ab` is not.
 * - A folder that ends in a separator after resolving — a root: `/`, `C:\`, `\\server\share\`
 *   — is a prefix as it is, so everything on that drive is inside it.
 * - Spellings are compared exactly, case included, even with `path.win32` (whose file systems
 *   usually ignore case): a path spelled with other case is judged outside, the safe answer.
 * - Separators and drive letters are those of `paths`: this platform's by default; pass
 *   `path.win32` to judge Windows paths (`C:\a` is inside `C:\`, `/` and `\` both separate) or
 *   `path.posix` for POSIX ones anywhere.
 */
export function isInsideFolder(folder: string, path: string, paths: PathSyntax = PLATFORM): boolean {
  return isInsideResolvedFolder(paths.resolve(folder), paths.resolve(path), paths.sep);
}
