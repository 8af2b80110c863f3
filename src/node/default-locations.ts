import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { findProjectRoot } from "../fs/project-root.js";
import { userSkillFolders } from "../sources/user-skill-folders.js";

/**
 * The usual skills folders, lowest precedence first (a later folder's skill wins by name):
 * the user's `~/.claude/skills` and `~/.agents/skills`, then the project's `.claude/skills`
 * and `.agents/skills`. Project skills override user skills, and the cross-client `.agents`
 * folder overrides the Claude-specific one within a scope. The project is the one the working
 * folder belongs to — the nearest folder above it with `.git` or `package.json`, as git finds
 * its repository — so the project's skills are found from any of its subfolders; the working
 * folder itself when there is none.
 */
export function defaultSkillLocations(
  projectDirectory: string = findProjectRoot(process.cwd()) ?? process.cwd(),
  home: string = homedir(),
): string[] {
  const project = resolve(projectDirectory);
  return [...userSkillFolders(home), join(project, ".claude", "skills"), join(project, ".agents", "skills")];
}
