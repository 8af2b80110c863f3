import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";

// A project is where an installer puts its skills: the `skills` CLI writes `.agents/skills`,
// `.claude/skills` and links into `node_modules` relative to it, so links that stay inside it
// are links the user (or their installer) made.

/** Files whose presence makes a folder a project root, as git and npm find theirs. */
const PROJECT_MARKERS = [".git", "package.json"] as const;

/**
 * The nearest folder, from `from` upwards, that holds `.git` or `package.json` — the project
 * `from` belongs to — or undefined when there is none. The walk stops below the home folder and
 * the file-system root: neither is ever a project root, so a dotfiles repository or a stray
 * `package.json` in the home folder does not make all of it a project. `from` need not exist.
 */
export function findProjectRoot(from: string, home: string = homedir()): string | undefined {
  const stop = new Set([resolve(home), resolve("/")]);
  for (let folder = resolve(from); !stop.has(folder); folder = dirname(folder)) {
    if (PROJECT_MARKERS.some((marker) => existsSync(`${folder}/${marker}`))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
  return undefined;
}
