import { join } from "node:path";
import { MAX_SKILL_FILE_BYTES, type SkillSource } from "../../core/skill-source.js";
import { readBoundedFile } from "../../fs/bounded-read.js";
import { listSkillFiles, readContainedFile } from "../skill-folder-files.js";
import type { FetchFunction } from "./fetch-function.js";
import { verifiedSkillFolder } from "./download-well-known-skill.js";
import { scanWellKnownSkills } from "./list-well-known-skills.js";
import { parseSiteUrl } from "./site-url.js";
import { cacheFolder } from "../../fs/cache-folder.js";
import { siteCacheFolder } from "./well-known-cache.js";
import type { WellKnownState } from "./well-known-state.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";

/** Options of {@link createWellKnownSource}. */
export interface WellKnownSourceOptions {
  /**
   * The site, e.g. `https://example.com` (its index is `/.well-known/agent-skills/index.json`,
   * else `/.well-known/skills/index.json`), or the URL of an `index.json`. `https:` only;
   * `http:` is accepted for 127.0.0.1, ::1 and localhost, for tests.
   */
  url: string;
  /** Where verified skills and the last index are kept. @default `$XDG_CACHE_HOME/skillset`, else the platform's cache folder (`~/.cache/skillset`, …) */
  cacheDir?: string;
  /** The `fetch` to use (a proxy, custom TLS). @default globalThis.fetch */
  fetch?: FetchFunction;
  /** How long one request may take, body included, in milliseconds. @default 10000 for the index, 30000 for a skill */
  timeoutMs?: number;
  /** How long a fetched index is used before it is fetched again, in milliseconds. @default 300000 */
  refreshMs?: number;
  /**
   * Let the agent's executor run these skills' scripts and dynamic context. The discovery spec
   * says clients do not run them by default; only for a site you trust to run code here.
   * @default false
   */
  runScripts?: boolean;
}

const ID_PREFIX = "well-known:";

/** Whether a source id is that of a {@link createWellKnownSource} source (`well-known:<site>`). */
export function isWellKnownSourceId(id: string): boolean {
  return id.startsWith(ID_PREFIX);
}

/** The site a well-known source's id names, as its URL; undefined for any other source's id. */
export function wellKnownSiteOf(id: string): string | undefined {
  return isWellKnownSourceId(id) ? id.slice(ID_PREFIX.length) : undefined;
}

const WELL_KNOWN_SOURCE_OPTIONS = {
  url: true,
  cacheDir: true,
  fetch: true,
  timeoutMs: true,
  refreshMs: true,
  runScripts: true,
} as const satisfies KnownOptions<WellKnownSourceOptions>;

/**
 * The skills a site publishes at its well-known URL (agent-skills discovery 0.2.0, as
 * `npx skills add <url>` reads it), as a {@link SkillSource}.
 *
 * - **Catalog** from the index's names and descriptions, validated like any frontmatter.
 * - **Lazy and verified.** A skill is downloaded when first loaded or read, and checked against
 *   the index's `sha256:` digest before anything of it is used. Archives (`.zip`, `.tar.gz`)
 *   are read in memory with the `skills` CLI's caps (10 MiB download, 25 MiB extracted, 1,000
 *   files); `..`, absolute paths, links and special files are refused.
 * - **Cached** by site and digest in `cacheDir`, written atomically; nothing is written
 *   elsewhere. A site that cannot be reached serves the skills of its last index that are
 *   cached, and says so in a warning.
 * - **Failures** never throw from `scan`: a warning says why; reads fail with a message naming
 *   the skill and URL. Requests time out; redirects are followed within the same origin only.
 *
 * Throws a `SkillsetError` at once for a URL that is not `https:` (or loopback `http:`).
 */
export function createWellKnownSource(options: WellKnownSourceOptions): SkillSource {
  refuseUnknownOptions("createWellKnownSource", options, WELL_KNOWN_SOURCE_OPTIONS);
  const site = parseSiteUrl(options.url);
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const state: WellKnownState = {
    id: `${ID_PREFIX}${site.href.replace(/\/$/, "")}`,
    site,
    siteFolder: siteCacheFolder(options.cacheDir ?? cacheFolder(), site),
    fetch: fetchFn,
    indexTimeoutMs: options.timeoutMs ?? 10_000,
    downloadTimeoutMs: options.timeoutMs ?? 30_000,
    refreshMs: options.refreshMs ?? 300_000,
    held: new Map(),
    downloads: new Map(),
    last: undefined,
    lastSignature: "",
    version: 0,
    listedAt: -Infinity,
    listing: undefined,
  };
  return {
    specificationVersion: "v1",
    id: state.id,
    // Content from a site: its commands run only where the integrator opted in.
    runsCommands: options.runScripts === true,
    scan: () => scanWellKnownSkills(state),
    async readSkill(skill) {
      return readBoundedFile(join(await verifiedSkillFolder(state, skill), "SKILL.md"), MAX_SKILL_FILE_BYTES);
    },
    async listFiles(skill, limits) {
      return listSkillFiles(await verifiedSkillFolder(state, skill), limits);
    },
    async readFile(skill, relativePath, maxBytes) {
      return readContainedFile(await verifiedSkillFolder(state, skill), relativePath, maxBytes);
    },
  };
}
