import { isSiteUrl } from "./well-known/site-url.js";

/** How a string source names npm packages: `npm:<package>`, or `npm:` for the project's `skills` field. */
export const NPM_SOURCE_PREFIX = "npm:";

/**
 * Whether a string source names a folder (local, or a path on a deepagents backend) rather than
 * npm packages (`npm:`) or a site (`https://`). Free of Node's modules, for every host.
 */
export function namesFolder(entry: string): boolean {
  return !entry.startsWith(NPM_SOURCE_PREFIX) && !isSiteUrl(entry);
}
