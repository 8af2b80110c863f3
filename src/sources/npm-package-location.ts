import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { realOrResolved } from "../fs/link-target.js";
import { isInsideFolder } from "../fs/path-inside.js";
import { isInsideAllowedRoots } from "./allowed-roots.js";

// A name as npm allows it (old packages may have capitals): one segment, or `@scope/name`. Also
// what keeps `npm:../x` or `npm:/etc` from naming a path.
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;

/** Whether `name` is a valid npm package name (`pkg`, `@scope/pkg`), never a path. */
export function isPackageName(name: string): boolean {
  return name.length <= 214 && PACKAGE_NAME.test(name);
}

/** An installed package: its folder as Node found it, the folder's real path, and its `package.json`. */
export interface InstalledPackage {
  name: string;
  /** `<…>/node_modules/<name>`, as found (possibly a link, as pnpm and workspaces make them). */
  directory: string;
  /** `directory` with every link resolved. */
  realDirectory: string;
  version?: string;
  /** The package's `skills` field, as written. */
  skillsField?: unknown;
  /**
   * The folder whose `node_modules` holds it, when that is `from` or a folder above it below the
   * home folder (a workspace root that hoisted it); undefined for `NODE_PATH` and global folders.
   */
  hoistRoot?: string;
}

/**
 * The package `name` as `require` would find it from the folder `from`: the first
 * `node_modules/<name>/package.json` along Node's own search paths (`from` and the folders above
 * it, then `NODE_PATH` and the global folders). Finds the package's root, not its entry point, so
 * `exports` that hide `package.json` do not matter. Undefined when it is not installed.
 */
export function findInstalledPackage(name: string, from: string): InstalledPackage | undefined {
  const searchPaths = createRequire(join(resolve(from), "noop.js")).resolve.paths(name) ?? [];
  for (const folder of searchPaths) {
    const directory = join(folder, name);
    const manifest = join(directory, "package.json");
    if (!existsSync(manifest)) continue;
    const json = readManifest(manifest);
    const hoistRoot =
      basename(folder) === "node_modules" && isAncestorBelowHome(dirname(folder), resolve(from))
        ? dirname(folder)
        : undefined;
    return {
      name,
      directory,
      realDirectory: realOrResolved(directory),
      ...(typeof json?.version === "string" ? { version: json.version } : {}),
      ...(json && "skills" in json ? { skillsField: json.skills } : {}),
      ...(hoistRoot === undefined ? {} : { hoistRoot }),
    };
  }
  return undefined;
}

/** `package.json` parsed as an object, or undefined when it cannot be read or is no JSON object. */
export function readManifest(file: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(readFileSync(file, "utf8"));
    return json !== null && typeof json === "object" && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the installed package's real folder lies inside `allowedRoots` (real paths) — the
 * folder it was found from, its project, the workspace root that hoisted it, and those given —
 * so a link out (`npm link`, a global folder) is refused.
 */
export function packageIsAllowed(installed: InstalledPackage, allowedRoots: readonly string[]): boolean {
  const roots =
    installed.hoistRoot === undefined ? allowedRoots : [...allowedRoots, realOrResolved(installed.hoistRoot)];
  return isInsideAllowedRoots(installed.realDirectory, roots);
}

// `ancestor` is `folder` or above it, and neither the home folder, the file-system root nor above
// them: a `node_modules` there is no project's.
function isAncestorBelowHome(ancestor: string, folder: string): boolean {
  const home = resolve(homedir());
  if (dirname(ancestor) === ancestor || isInsideFolder(ancestor, home)) return false;
  return isInsideFolder(ancestor, folder);
}
