import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";
import { linkTarget, realOrResolved } from "../fs/link-target.js";
import { isInsideAllowedRoots } from "../sources/allowed-roots.js";
import { expandHome } from "../fs/expand-home.js";
import { defaultAllowedRoots } from "../sources/local-source-options.js";
import { SKIPPED_FOLDERS } from "../sources/local-child-folders.js";

/** Options of {@link findSkillDirectories}. */
export interface FindSkillDirectoriesOptions {
  /**
   * Further folders that symlinked folders may lead into, besides the defaults of a local
   * source (`root`, its project, the user's skills folders); see `createLocalSource`.
   * @default []
   */
  allowedRoots?: readonly string[];
  /** Called for each symlink that is not followed (leading outside the allowed folders, dangling, a loop), with why. */
  onSkipped?(path: string, message: string): void;
}

/**
 * Every folder below `root` (itself included), at any depth, that holds a `SKILL.md` or
 * `skill.md`, in sorted order. Symlinked folders are followed as a local source follows them:
 * only while their real target stays inside the allowed folders, and each real folder once, so
 * loops end; links inside a skill folder are not followed. A leading `~` or `~/` in `root` is the home folder (see {@link expandHome}, which
 * throws for `~user`).
 */
export function findSkillDirectories(root: string, options: FindSkillDirectoriesOptions = {}): string[] {
  const start = expandHome(root);
  const allowedRoots = [
    ...defaultAllowedRoots(start),
    ...(options.allowedRoots ?? []).map((path) => realOrResolved(expandHome(path))),
  ];
  const found: string[] = [];
  const visited = new Set<string>();
  const visit = (directory: string, real: string) => {
    if (visited.has(real)) return;
    visited.add(real);
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    const isSkill = entries.some(
      (entry) => (entry.name === "SKILL.md" || entry.name === "skill.md") && !entry.isDirectory(),
    );
    if (isSkill) found.push(directory);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path, join(real, entry.name));
      // A skill folder's links are its files' business (its SKILL.md, its resources), not skills.
      else if (entry.isSymbolicLink() && !isSkill) {
        const target = followable(path, allowedRoots, options.onSkipped);
        if (target !== undefined) visit(path, target);
      }
    }
  };
  visit(start, realOrResolved(start));
  return found;
}

// The real folder a symlink leads to when it may be followed; undefined for a link to a file,
// and, reported, for one that leads outside the allowed folders or nowhere.
function followable(
  link: string,
  allowedRoots: readonly string[],
  onSkipped: FindSkillDirectoriesOptions["onSkipped"],
): string | undefined {
  let target: string;
  try {
    target = linkTarget(link);
  } catch (error) {
    if (!SkillsetError.isInstance(error)) throw error;
    onSkipped?.(link, error.message);
    return undefined;
  }
  if (!statSync(target, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  if (isInsideAllowedRoots(target, allowedRoots)) return target;
  onSkipped?.(link, `${link} is a symbolic link to ${target}, outside the allowed folders; not followed`);
  return undefined;
}
