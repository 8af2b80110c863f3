import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expandHome } from "../sources/expand-home.js";

const SKIPPED = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__"]);

/**
 * Every folder below `root` (itself included), at any depth, that holds a `SKILL.md` or
 * `skill.md`, in sorted order. Symlinked folders are not entered, so loops cannot occur. A
 * leading `~` or `~/` in `root` is the home folder (see {@link expandHome}, which throws for `~user`).
 */
export function findSkillDirectories(root: string): string[] {
  const found: string[] = [];
  const visit = (directory: string) => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((entry) => (entry.name === "SKILL.md" || entry.name === "skill.md") && !entry.isDirectory())) found.push(directory);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) visit(join(directory, entry.name));
    }
  };
  visit(expandHome(root));
  return found;
}
