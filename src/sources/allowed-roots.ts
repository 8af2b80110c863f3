import { readlinkSync, realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import { SkillsetError } from "../core/errors.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { readSkillFile, readSkillHead } from "./read-skill-head.js";

// Symlink confinement of a local source (decision 11): a link is followed only while its real
// target stays inside one of the source's allowed roots, which are real paths themselves.

/** `path` with every symlink resolved, or made absolute when it cannot be resolved (missing, a loop). */
export function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Whether the real path `realPath` is one of `allowedRoots` or lies below one. Compares whole
 * path segments, so `/a/skills-evil` is not inside `/a/skills`.
 */
export function isInsideAllowedRoots(realPath: string, allowedRoots: readonly string[]): boolean {
  // A root that ends in a separator (`/`, `C:\\`) is a prefix as it is.
  return allowedRoots.some(
    (allowed) => realPath === allowed || realPath.startsWith(allowed.endsWith(sep) ? allowed : allowed + sep),
  );
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

/**
 * The real target of the symbolic link `file`; a `symlink-escape` error when it leaves
 * `allowedRoots`, and the errors of {@link linkTarget} when it cannot be followed.
 */
export function allowedLinkTarget(file: string, allowedRoots: readonly string[]): string {
  const target = linkTarget(file);
  if (!isInsideAllowedRoots(target, allowedRoots))
    throw new SkillsetError("symlink-escape", `${file} is a symbolic link to ${target}, outside the allowed folders`);
  return target;
}

/**
 * The real path of the skill's folder, checked on every use: it may have been swapped for a
 * link since discovery. Throws an `outside-skill` error when it now resolves outside
 * `allowedRoots`. Reads should go through the returned path, so the link is not followed again.
 */
export function allowedSkillFolder(skill: SkillMetadata, allowedRoots: readonly string[]): string {
  const folder = skillDirectory(skill);
  const real = realOrResolved(folder);
  if (!isInsideAllowedRoots(real, allowedRoots))
    throw new SkillsetError(
      "outside-skill",
      `the skill's folder ${folder} now resolves to ${real}, outside the allowed folders; refused`,
    );
  return real;
}

/**
 * {@link readSkillHead}, following a symlinked `file` only into `allowedRoots`; with the real
 * path of a followed link as `target`.
 */
export function readSkillHeadWithinRoots(
  file: string,
  withStamp: boolean,
  allowedRoots: readonly string[],
): { text: string; stamp?: string; target?: string } | undefined {
  try {
    return readSkillHead(file, withStamp);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
    const target = allowedLinkTarget(file, allowedRoots);
    const head = readSkillHead(target, withStamp);
    return head && { ...head, target };
  }
}

/** {@link readSkillFile}, following a symlinked `file` only into `allowedRoots`. */
export function readSkillFileWithinRoots(file: string, allowedRoots: readonly string[]): Uint8Array {
  try {
    return readSkillFile(file);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
    return readSkillFile(allowedLinkTarget(file, allowedRoots));
  }
}
