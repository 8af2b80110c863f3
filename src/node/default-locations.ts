import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The usual skills folders, lowest precedence first (a later folder's skill wins by name):
 * the user's `~/.claude/skills` and `~/.agents/skills`, then the project's `.claude/skills`
 * and `.agents/skills`. Project skills override user skills, and the cross-client `.agents`
 * folder overrides the Claude-specific one within a scope.
 */
export function defaultSkillLocations(projectDirectory: string = process.cwd(), home: string = homedir()): string[] {
  const project = resolve(projectDirectory);
  return [
    join(home, ".claude", "skills"),
    join(home, ".agents", "skills"),
    join(project, ".claude", "skills"),
    join(project, ".agents", "skills"),
  ];
}
