import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import { realOrResolved } from "../../fs/link-target.js";
import { allowedLinkTarget } from "../../sources/allowed-roots.js";
import { defaultAllowedRoots } from "../../sources/local-source-options.js";

/**
 * The project folders the `skills` CLI (1.7.4) installs skills into: the shared `.agents/skills`
 * first, then each agent's own. A skill is installed as `<folder>/<its name, sanitized>`.
 */
export const INSTALLER_SKILL_FOLDERS = [
  ".agents/skills",
  ".claude/skills",
  ".cline/skills",
  ".codebuddy/skills",
  ".codex/skills",
  ".commandcode/skills",
  ".continue/skills",
  ".factory/skills",
  ".github/skills",
  ".goose/skills",
  ".grok/skills",
  ".iflow/skills",
  ".junie/skills",
  ".kilo/skills",
  ".kilocode/skills",
  ".kimchi/skills",
  ".kiro/skills",
  ".minimax/skills",
  ".mux/skills",
  ".neovate/skills",
  ".opencode/skills",
  ".openhands/skills",
  ".pi/skills",
  ".posit/assistant/skills",
  ".qoder/skills",
  ".roo/skills",
  ".trae/skills",
  ".windsurf/skills",
  ".zcode/skills",
  ".zencoder/skills",
] as const;

/**
 * The folder name the `skills` CLI installs the skill `name` under (its `sanitizeName`), or
 * undefined for a name that is a path rather than a name (`/`, `\`, NUL, `.` or `..`): a lockfile
 * entry never makes skillset look outside the skills folders.
 */
export function installFolderName(name: string): string | undefined {
  if (/[/\\\0]/.test(name) || name === "." || name === "..") return undefined;
  const sanitized = name
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, "-")
    .replace(/^[.-]+|[.-]+$/g, "")
    .slice(0, 255);
  return sanitized || "unnamed-skill";
}

/** One place a skill is installed: the path in a skills folder and the real folder it is. */
export type InstalledFolder = { path: string; real: string } | { path: string; refused: string };

/**
 * Where the skill installed as `folderName` is, in each of `locations` (skills folders): its path
 * there and its real folder. A link is followed only into the folder's allowed roots (the folder,
 * its project with `node_modules`, the user's skills folders), as local sources follow links; a
 * link that leads elsewhere or loops is `refused` with the reason; a dangling one installs nothing. Several paths to one
 * real folder are that folder once, at its first path.
 */
export function installedSkillFolders(folderName: string, locations: readonly string[]): InstalledFolder[] {
  const found: InstalledFolder[] = [];
  const seen = new Set<string>();
  for (const location of locations) {
    const path = join(location, folderName);
    let isLink: boolean;
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() && !stat.isSymbolicLink()) continue;
      isLink = stat.isSymbolicLink();
    } catch {
      continue;
    }
    let real: string;
    try {
      real = isLink ? allowedLinkTarget(path, defaultAllowedRoots(realOrResolved(location))) : realOrResolved(path);
    } catch (error) {
      // A link to a copy that is gone installs nothing: the skill is missing there.
      if (SkillsetError.isInstance(error) && error.code === "symlink-dangling") continue;
      found.push({ path, refused: SkillsetError.isInstance(error) ? error.message : String(error) });
      continue;
    }
    if (!existsSync(join(real, "SKILL.md")) || seen.has(real)) continue;
    seen.add(real);
    found.push({ path, real });
  }
  return found;
}
