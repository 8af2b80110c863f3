import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The user's own skills folders, lowest precedence first: Claude Code's `~/.claude/skills`,
 * then the cross-client `~/.agents/skills`. Local sources allow symlinks into them by default,
 * and the default locations read them before the project's folders.
 */
export function userSkillFolders(home: string = homedir()): string[] {
  return [join(home, ".claude", "skills"), join(home, ".agents", "skills")];
}
