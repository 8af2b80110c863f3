import { existsSync } from "node:fs";
import { createCatalog, type CatalogSnapshot } from "../core/catalog.js";
import { defaultSkillLocations } from "../node/default-locations.js";
import { createLocalSource } from "../sources/local-source.js";
import { CliError } from "./cli-error.js";
import { withProgress, type Terminal } from "./terminal.js";

/** Options shared by the commands that read skills from sources. */
export interface SourceOptions {
  recursive?: boolean;
}

/**
 * Scans the given folders, in precedence order, or the usual locations when none are given
 * (only those that exist). A folder given explicitly that does not exist is an error.
 */
export async function scanSources(paths: string[], options: SourceOptions, terminal: Terminal): Promise<CatalogSnapshot> {
  let locations = paths;
  if (locations.length === 0) {
    locations = defaultSkillLocations().filter((path) => existsSync(path));
    if (locations.length === 0) {
      throw new CliError(`No skills folders found. Looked in: ${defaultSkillLocations().join(", ")}. Pass a folder, e.g. \`skillset list ./skills\`.`);
    }
  } else {
    const missing = locations.filter((path) => !existsSync(path));
    if (missing.length > 0) throw new CliError(`No such folder: ${missing.join(", ")}`);
  }
  const catalog = createCatalog(locations.map((path) => createLocalSource({ path, recursive: options.recursive ?? false, watch: false })));
  try {
    return await withProgress(terminal, `Scanning ${locations.length} skills folder${locations.length === 1 ? "" : "s"}`, () => catalog.refresh());
  } finally {
    catalog.close();
  }
}
