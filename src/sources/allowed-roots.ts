import { SkillsetError } from "../errors/skillset-error.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";
import { readBoundedFile } from "../fs/bounded-read.js";
import { linkTarget, realOrResolved } from "../fs/link-target.js";
import { isInsideFolder } from "../fs/path-inside.js";
import { readSkillHead } from "./read-skill-head.js";

// Symlink confinement of a local source (decision 11): a link is followed only while its real
// target stays inside one of the source's allowed roots, which are real paths themselves.

/**
 * Whether the real path `realPath` is one of `allowedRoots` or lies below one, by
 * {@link isInsideFolder}: whole path segments, so `/a/skills-evil` is not inside `/a/skills`.
 */
export function isInsideAllowedRoots(realPath: string, allowedRoots: readonly string[]): boolean {
  return allowedRoots.some((allowed) => isInsideFolder(allowed, realPath));
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

/** {@link readBoundedFile} of a skill file, following a symlinked `file` only into `allowedRoots`. */
export function readSkillFileWithinRoots(file: string, allowedRoots: readonly string[]): Uint8Array {
  try {
    return readBoundedFile(file, MAX_SKILL_FILE_BYTES);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
    return readBoundedFile(allowedLinkTarget(file, allowedRoots), MAX_SKILL_FILE_BYTES);
  }
}
