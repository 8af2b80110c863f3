import { findInstalledPackage, isPackageName } from "../sources/npm-package-location.js";
import { NPM_SOURCE_PREFIX } from "../sources/string-source-kind.js";
import { CliError } from "./cli-error.js";

/**
 * Refuses `npm:<package>` arguments whose package is not installed where Node would find it from
 * `cwd`, as a folder argument that does not exist is refused: a {@link CliError}
 * `package-not-found` naming them and the install command. `npm:` alone (the project's `skills`
 * field) and malformed names are left to the source, which reports them as diagnostics.
 */
export function checkNpmArguments(locations: readonly string[], cwd = process.cwd()): void {
  const missing = locations
    .filter((location) => location.startsWith(NPM_SOURCE_PREFIX))
    .map((location) => location.slice(NPM_SOURCE_PREFIX.length))
    .filter((name) => isPackageName(name) && findInstalledPackage(name, cwd) === undefined);
  if (missing.length === 0) return;
  const named = missing.map((name) => `'${name}'`).join(", ");
  const folders = missing.map((name) => `node_modules/${name}`).join(" or ");
  throw new CliError(
    "package-not-found",
    `${missing.length === 1 ? "Package" : "Packages"} ${named} ${missing.length === 1 ? "is" : "are"} not installed: no ${folders} at or above ${cwd}. Run npm install ${missing.join(" ")}`,
  );
}
