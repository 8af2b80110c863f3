import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// This file is dist/cli/chat/install-command.js in the package (src/cli/chat/… in a clone).
const PACKAGE_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The command that installs `packages` where this skillset finds them: `npm install -g …` when
 * skillset runs from npm's global folder (its optional peers must be global too), else
 * `npm install …`.
 */
export function installCommand(packages: readonly string[]): string {
  return `npm install ${isGlobalInstall(PACKAGE_ROOT) ? "-g " : ""}${packages.join(" ")}`;
}

/**
 * Whether the package at `packageRoot` is installed in npm's global folder. That folder is a
 * `node_modules` in no project: `<prefix>/lib/node_modules` (`<prefix>\node_modules` on Windows)
 * has no package.json beside it, which a project's always has. Otherwise it is compared with
 * `npm root -g` (`globalRoot`), which reads npm's configuration only, no network.
 */
export function isGlobalInstall(packageRoot: string, globalRoot: () => string | undefined = npmGlobalRoot): boolean {
  // A linked clone (npm link) runs from its own folder: its packages are the clone's, not global.
  const folder = realPath(packageRoot);
  const modules = path.dirname(folder);
  if (path.basename(modules) !== "node_modules") return false;
  if (!existsSync(path.join(path.dirname(modules), "package.json"))) return true;
  const global = globalRoot();
  return global !== undefined && realPath(global) === modules;
}

/** `npm root -g`, or `undefined` when npm cannot say (not on the PATH, say). */
function npmGlobalRoot(): string | undefined {
  try {
    const output = execFileSync("npm", ["root", "-g"], {
      encoding: "utf8",
      timeout: 5_000,
      stdio: ["ignore", "pipe", "ignore"],
      // npm is a .cmd script on Windows, which only a shell runs.
      shell: process.platform === "win32",
    });
    return output.trim() || undefined;
  } catch {
    return undefined;
  }
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
