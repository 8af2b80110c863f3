import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { createCatalog, type CatalogSnapshot } from "../core/catalog/catalog.js";
import { formatDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import { DEFAULT_CATALOG_BUDGET, MIN_CATALOG_BUDGET } from "../core/catalog/render-catalog.js";
import type { SkillSource } from "../core/skill-source.js";
import { defaultSkillLocations } from "../node/default-locations.js";
import { SKILL_FILES } from "../sources/local-skill-reader.js";
import { namesFolder } from "../sources/string-source-kind.js";
import { sourceFromString } from "../sources/source-from-string.js";
import { isSiteUrl, parseSiteUrl } from "../sources/well-known/site-url.js";
import { CliError } from "./cli-error.js";
import { checkNpmArguments } from "./npm-arguments.js";
import { homePath } from "./home-path.js";
import { mergeIdenticalCopies } from "./identical-copies.js";
import { plural } from "./plural.js";
import { withProgress, type Terminal } from "./terminal.js";

/** Options shared by the commands that read skills from sources. */
export interface SourceOptions {
  recursive?: boolean;
  /** `--allow-root <dir>` (repeatable): further folders that symlinks may lead into. */
  allowRoot?: string[];
}

/**
 * The source a command-line argument names, as the CLI reads it: with `--recursive` and
 * `--allow-root`; not watching unless `watch` (the commands that keep running).
 */
export function cliSource(entry: string, options: SourceOptions, watch = false): SkillSource {
  return sourceFromString(entry, { recursive: options.recursive ?? false, watch, allowedRoots: allowedRoots(options) });
}

/** The `--allow-root` folders, `~` expanded; each must be an existing folder. */
export function allowedRoots(options: SourceOptions): string[] {
  const roots = (options.allowRoot ?? []).map(homePath);
  const missing = roots.filter((path) => !existsSync(path) || !statSync(path).isDirectory());
  if (missing.length > 0) throw new CliError("no-such-folder", `--allow-root: no such folder: ${missing.join(", ")}`);
  return roots;
}

// Diagnostics about a whole source that change what a command sees: a limit (depth, folder count)
// cut a scan, so skills below may be missing; a folder read without --recursive holds its skills
// deeper; a site could not be reached, so its skills are the cached verified copies, or none.
const SOURCE_WARNINGS = new Set([
  "depth-limit",
  "scan-limit",
  "nested-skills",
  "served-from-cache",
  "site-unavailable",
]);

/** Diagnostics that say a scan is incomplete or served from a cache (a limit cut it, skills lie deeper, a site was down). */
export function scanLimitDiagnostics(snapshot: CatalogSnapshot): Diagnostic[] {
  return snapshot.diagnostics.filter((diagnostic) => SOURCE_WARNINGS.has(diagnostic.code));
}

/**
 * Scans the given folders, in precedence order, or the usual locations when none are given
 * (only those that exist; a folder given explicitly that does not exist is an error). Returns the
 * snapshot with the sources read, for the engine (their order decides catalog priority),
 * identical copies of one skill taken as that skill. A limit that cut the scan, or a
 * site served from the cache, is a warning on stderr, unless `limitsShown` (the command shows
 * every diagnostic itself).
 */
export async function scanCatalog(
  paths: string[],
  options: SourceOptions,
  terminal: Terminal,
  limitsShown = false,
): Promise<{ snapshot: CatalogSnapshot; sources: readonly SkillSource[] }> {
  const locations = sourceLocations(paths);
  const catalog = createCatalog(locations.map((path) => cliSource(path, options)));
  try {
    const snapshot = mergeIdenticalCopies(
      await withProgress(terminal, `Scanning ${plural(locations.length, "skills folder")}`, () => catalog.refresh()),
    );
    if (!limitsShown)
      for (const diagnostic of scanLimitDiagnostics(snapshot))
        terminal.err(`skillset: ${formatDiagnostic(diagnostic)}`);
    return { snapshot, sources: catalog.sources };
  } finally {
    catalog.close();
  }
}

/**
 * `--budget <tokens>`: a whole number of tokens, or `none` for no limit; the middleware's default
 * when not given.
 */
export function parseBudget(value: string | undefined): number | false {
  if (value === undefined) return DEFAULT_CATALOG_BUDGET;
  if (value === "none") return false;
  const tokens = Number(value);
  if (!Number.isSafeInteger(tokens) || tokens < MIN_CATALOG_BUDGET)
    throw new CliError(
      "usage",
      `--budget must be a whole number of tokens of at least ${MIN_CATALOG_BUDGET}, or none; got '${value}'`,
    );
  return tokens;
}

/**
 * The skills folders to read, in precedence order: the given ones (each must be a folder, a
 * skill's `SKILL.md`, which stands for its folder, an `npm:` source or an `https://` site), or the
 * usual locations that exist; a folder named twice is read once, at its first place.
 */
export function sourceLocations(paths: string[]): string[] {
  // `npm:` sources name packages, and sites are no folders: their sources report what fails.
  let locations = paths.map((path) =>
    namesFolder(path) ? homePath(path) : isSiteUrl(path) ? checkedSiteUrl(path) : path,
  );
  if (locations.length === 0) {
    locations = defaultSkillLocations().filter((path) => existsSync(path));
    if (locations.length === 0) {
      throw new CliError(
        "no-skills-folders",
        `No skills folders found. Looked in: ${defaultSkillLocations().join(", ")}. Pass the skills folders to read as arguments.`,
      );
    }
  } else {
    // A skill's own SKILL.md stands for its folder, as validate takes it.
    locations = locations.map((path) => (namesFolder(path) && isSkillFile(path) ? dirname(path) : path));
    const folders = locations.filter(namesFolder);
    const missing = folders.filter((path) => !existsSync(path));
    if (missing.length > 0) throw new CliError("no-such-folder", `No such folder: ${missing.join(", ")}`);
    const files = folders.filter((path) => !statSync(path).isDirectory());
    if (files.length > 0) throw new CliError("not-a-folder", `Not a folder: ${files.join(", ")}`);
    checkNpmArguments(locations);
  }
  // The same folder twice (e.g. the project is the home folder) is scanned once, at its first place.
  const same = (a: string, b: string) => (isSiteUrl(a) || isSiteUrl(b) ? a === b : resolve(a) === resolve(b));
  return locations.filter((path, index) => locations.findIndex((other) => same(other, path)) === index);
}

function isSkillFile(path: string): boolean {
  return SKILL_FILES.includes(basename(path)) && statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

// A site argument as given, once its URL is known to be one skillset fetches (https, or loopback http).
function checkedSiteUrl(url: string): string {
  try {
    parseSiteUrl(url);
    return url;
  } catch (error) {
    throw new CliError("usage", (error as Error).message);
  }
}
