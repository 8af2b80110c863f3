import type { SkillSource } from "../core/skill-source.js";
import { createLocalSource } from "./local-source.js";
import { createNpmSource, NPM_SOURCE_PREFIX } from "./npm-source.js";
import { isSiteUrl } from "./well-known/site-url.js";
import { createWellKnownSource } from "./well-known/well-known-source.js";

/** How the hosts read a source given as a string. */
export interface StringSourceOptions {
  /** Find skills at any depth below a folder. @default false */
  recursive?: boolean;
  /** Watch folders for changes. @default true */
  watch?: boolean;
  /** Further folders that symlinks may lead into. */
  allowedRoots?: string[];
}

/**
 * The source a string names, the one place every host turns strings into sources: `npm:<package>`
 * the skills of an installed package, `npm:` those of the packages the project's `package.json`
 * names in its `skills` field (both resolved from the current folder); an `https://` URL, the
 * skills its site publishes at its well-known URL (cached in the user's cache folder); a folder
 * (`~` allowed) becomes a local source.
 */
export function sourceFromString(entry: string, options: StringSourceOptions = {}): SkillSource {
  if (entry.startsWith(NPM_SOURCE_PREFIX)) {
    const name = entry.slice(NPM_SOURCE_PREFIX.length);
    return createNpmSource({
      ...(name === "" ? {} : { packages: [name] }),
      ...(options.watch === undefined ? {} : { watch: options.watch }),
      ...(options.allowedRoots ? { allowedRoots: options.allowedRoots } : {}),
    });
  }
  if (isSiteUrl(entry)) return createWellKnownSource({ url: entry });
  return createLocalSource({
    path: entry,
    recursive: options.recursive ?? false,
    ...(options.watch === undefined ? {} : { watch: options.watch }),
    ...(options.allowedRoots ? { allowedRoots: options.allowedRoots } : {}),
  });
}

/** Each string of `entries` as its source; sources given as objects stay as they are. */
export function sourcesFromStrings(
  entries: ReadonlyArray<string | SkillSource>,
  options: StringSourceOptions = {},
): SkillSource[] {
  return entries.map((entry) => (typeof entry === "string" ? sourceFromString(entry, options) : entry));
}
