import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { realOrResolved } from "../fs/link-target.js";
import {
  findInstalledPackage,
  isPackageName,
  packageIsAllowed,
  readManifest,
  type InstalledPackage,
} from "./npm-package-location.js";
import { findProjectRoot } from "../fs/project-root.js";
import { parseSkillsField, type NpmSkillRequest } from "./npm-skills-field.js";

/** A package to read skills from, found where Node would find it. */
export interface ResolvedNpmPackage extends InstalledPackage {
  /** Only these skills (folder or skill names); empty for all. */
  skills: string[];
}

/** Where {@link resolveNpmPackages} looks. */
export interface NpmPackageQuery {
  /** Package names; undefined: those the `skills` field of the project's `package.json` names. */
  packages?: readonly string[];
  /** The folder packages are resolved from, as `require` would from a file in it. */
  cwd: string;
  /** Real folders an installed package's real folder may lie in (beyond its hoisting root). */
  allowedRoots: readonly string[];
  /** Names the source in diagnostics. */
  sourceId: string;
}

// A chain of packages naming packages in their `skills` fields ends somewhere.
const MAX_PACKAGES = 1000;

/**
 * The packages asked for, each found from the folder that named it (the project, or a package
 * whose own `skills` field names further packages), in order and each once; a diagnostic for
 * every entry that cannot be read: not installed, outside the allowed folders, not `npm:`.
 */
export function resolveNpmPackages(query: NpmPackageQuery): {
  packages: ResolvedNpmPackage[];
  diagnostics: Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  const report = (severity: Diagnostic["severity"], code: string, file: string, message: string) =>
    diagnostics.push({ severity, code, file, message, source: query.sourceId });
  const cwd = resolve(query.cwd);
  const roots = [...query.allowedRoots, ...projectRoots(cwd)];
  const queue: Array<{ request: NpmSkillRequest; from: string; file: string }> = [];
  const fromField = (field: unknown, from: string, file: string) => {
    const parsed = parseSkillsField(field);
    for (const problem of parsed.problems) report("warning", "skills-field-entry", file, problem);
    for (const request of parsed.requests) queue.push({ request, from, file });
  };

  if (query.packages === undefined) {
    const manifest = nearestManifest(cwd);
    const field = manifest === undefined ? undefined : readManifest(manifest)?.skills;
    if (manifest === undefined)
      report(
        "warning",
        "no-package-json",
        cwd,
        `No package.json at or above ${cwd}: "npm:" reads the "skills" field of the project's package.json`,
      );
    else if (field === undefined)
      report(
        "warning",
        "no-skills-field",
        manifest,
        `${manifest} has no "skills" field: add "skills": ["npm:<package>"] to it, or name each package as npm:<package>`,
      );
    else fromField(field, dirname(manifest), manifest);
  } else {
    for (const name of query.packages) {
      if (isPackageName(name)) queue.push({ request: { package: name, skills: [] }, from: cwd, file: cwd });
      else
        report(
          "error",
          "invalid-package-name",
          cwd,
          `"npm:${name}" does not name an npm package (expected npm:<package> or npm:@scope/<package>)`,
        );
    }
  }

  const found = new Map<string, ResolvedNpmPackage>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { request, from, file } = next;
    const installed = findInstalledPackage(request.package, from);
    if (installed === undefined) {
      report(
        "error",
        "package-not-installed",
        file,
        `Package '${request.package}' is not installed: no node_modules/${request.package} at or above ${from}. Run npm install ${request.package}`,
      );
      continue;
    }
    if (!packageIsAllowed(installed, [...roots, realOrResolved(from)])) {
      report(
        "error",
        "symlink-escape",
        installed.directory,
        `${installed.directory} is a symbolic link to ${installed.realDirectory}, outside the allowed folders; add that folder to allowedRoots (--allow-root) to read it`,
      );
      continue;
    }
    const seen = found.get(installed.realDirectory);
    if (seen) {
      // Asked for twice: all of it when either asked for all, else both selections.
      seen.skills =
        seen.skills.length === 0 || request.skills.length === 0
          ? []
          : [...new Set([...seen.skills, ...request.skills])];
      continue;
    }
    if (found.size === MAX_PACKAGES) {
      report(
        "warning",
        "scan-limit",
        file,
        `Stopped after ${MAX_PACKAGES} packages named by "skills" fields; '${request.package}' and any after it were left out`,
      );
      break;
    }
    found.set(installed.realDirectory, { ...installed, skills: request.skills });
    if (installed.skillsField !== undefined)
      fromField(installed.skillsField, installed.realDirectory, join(installed.directory, "package.json"));
  }
  return { packages: [...found.values()], diagnostics };
}

/** The nearest `package.json` at or above `folder`, below the home folder: the project's. */
export function nearestManifest(folder: string): string | undefined {
  const home = resolve(homedir());
  for (let current = resolve(folder); current !== home; current = dirname(current)) {
    if (existsSync(join(current, "package.json"))) return join(current, "package.json");
    if (dirname(current) === current) return undefined;
  }
  return undefined;
}

// The folder packages are resolved from and the project it lies in, as real paths: where the
// links of installed packages may lead (pnpm's `.pnpm` store, a workspace's packages).
function projectRoots(cwd: string): string[] {
  const manifest = nearestManifest(cwd);
  const project = findProjectRoot(cwd);
  return [cwd, ...(manifest === undefined ? [] : [dirname(manifest)]), ...(project === undefined ? [] : [project])].map(
    realOrResolved,
  );
}
