import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import { SkillsetError } from "../core/errors.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-metadata.js";
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
  return allowedRoots.some((allowed) => realPath === allowed || realPath.startsWith(allowed + sep));
}

/** The real target of the symbolic link `file`; a `symlink-escape` error when it leaves `allowedRoots`. */
export function allowedLinkTarget(file: string, allowedRoots: readonly string[]): string {
  const target = realOrResolved(file);
  if (!isInsideAllowedRoots(target, allowedRoots)) throw new SkillsetError("symlink-escape", `${file} is a symbolic link to ${target}, outside the allowed folders`);
  return target;
}

/**
 * The skill's folder, checked on every use: it may have been swapped for a link since discovery.
 * Throws an `outside-skill` error when it now resolves outside `allowedRoots`.
 */
export function allowedSkillFolder(skill: SkillMetadata, allowedRoots: readonly string[]): string {
  const folder = skillDirectory(skill);
  const real = realOrResolved(folder);
  if (!isInsideAllowedRoots(real, allowedRoots)) throw new SkillsetError("outside-skill", `the skill's folder ${folder} now resolves to ${real}, outside the allowed folders; refused`);
  return folder;
}

/** {@link readSkillHead}, following a symlinked `file` only into `allowedRoots`. */
export function readSkillHeadWithinRoots(file: string, withStamp: boolean, allowedRoots: readonly string[]): { text: string; stamp?: string } | undefined {
  try {
    return readSkillHead(file, withStamp);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
    return readSkillHead(allowedLinkTarget(file, allowedRoots), withStamp);
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
