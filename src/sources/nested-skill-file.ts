import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { SKIPPED_FOLDERS } from "./local-child-folders.js";
import { SKILL_FILES } from "./local-skill-reader.js";

// How far the look goes: in a mirror of repositories (`<owner>/<repo>/skills/<name>`) a skill
// folder is at level 4.
const MAX_DEPTH = 4;
const MAX_FOLDERS = 256;

/**
 * The first skill file (`SKILL.md` or `skill.md`) below `root` in a folder of level 2 or deeper
 * (the level-1 folders are the ones a source without `recursive` reads), depth first in name
 * order, within 4 levels and 256 folders listed; undefined when there is none there. It tells a
 * user who pointed a source at a folder of collections (a checkout of many repositories, a
 * project root) why no skill was read. Symlinks are not followed: a hint needs no safety checks,
 * a scan does.
 */
export function findNestedSkillFile(root: string): string | undefined {
  const stack = [{ folder: root, depth: 0 }];
  for (let listed = 0; stack.length > 0 && listed < MAX_FOLDERS; listed++) {
    const { folder, depth } = stack.pop()!;
    const entries = childEntries(folder);
    const skill =
      depth >= 2 ? entries.find((entry) => SKILL_FILES.includes(entry.name) && !entry.isDirectory()) : undefined;
    if (skill) return join(folder, skill.name);
    if (depth === MAX_DEPTH) continue;
    // Pushed last to first, so the first name is looked at first.
    for (let at = entries.length - 1; at >= 0; at--) {
      const entry = entries[at]!;
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
        stack.push({ folder: join(folder, entry.name), depth: depth + 1 });
    }
  }
  return undefined;
}

// A folder's entries in name order; none when it cannot be read.
function childEntries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}
