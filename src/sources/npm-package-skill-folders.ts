import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { realOrResolved } from "../fs/link-target.js";
import { isInsideAllowedRoots } from "./allowed-roots.js";
import type { ResolvedNpmPackage } from "./npm-packages.js";

/** Where a package keeps its skills, as the `skills` CLI and skills-npm look for them. */
export const PACKAGE_SKILL_FOLDERS = ["skills", "dist/skills"] as const;

/**
 * The folders to read a package's skills from: the package itself when it has a root
 * `SKILL.md` (then it is one skill, and nothing else is looked at), else those of `skills/` and
 * `dist/skills/` that exist. A folder that is a link out of the package and the allowed folders
 * is left out with an error; a package with none of them gets a warning.
 */
export function packageSkillFolders(
  pkg: ResolvedNpmPackage,
  allowedRoots: readonly string[],
  sourceId: string,
): { folders: string[]; diagnostics: Diagnostic[] } {
  if (existsSync(join(pkg.directory, "SKILL.md"))) return { folders: [pkg.directory], diagnostics: [] };
  const folders: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const roots = [...allowedRoots, pkg.realDirectory];
  for (const relative of PACKAGE_SKILL_FOLDERS) {
    const folder = join(pkg.directory, relative);
    if (!isFolder(folder)) continue;
    const real = realOrResolved(folder);
    if (isInsideAllowedRoots(real, roots)) folders.push(folder);
    else
      diagnostics.push({
        severity: "error",
        code: "symlink-escape",
        file: folder,
        message: `${folder} is a symbolic link to ${real}, outside the package and the allowed folders`,
        source: sourceId,
      });
  }
  if (folders.length === 0 && diagnostics.length === 0) {
    const message = `Package '${pkg.name}' (${pkg.directory}) has no skills: no SKILL.md at its root and no skills/<name>/SKILL.md or dist/skills/<name>/SKILL.md`;
    diagnostics.push({
      severity: "warning",
      code: "package-without-skills",
      file: join(pkg.directory, "package.json"),
      message,
      source: sourceId,
    });
  }
  return { folders, diagnostics };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
