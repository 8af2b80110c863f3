import type { SkillSourceScan } from "../../core/skill-source.js";
import type { FetchFunction } from "./fetch-function.js";
import type { WellKnownEntry } from "./well-known-index.js";

/**
 * Everything one well-known source holds between calls; the modules that list and download
 * take it explicitly.
 */
export interface WellKnownState {
  /** `well-known:<site>`. */
  readonly id: string;
  readonly site: URL;
  /** This site's folder in the cache. */
  readonly siteFolder: string;
  readonly fetch: FetchFunction;
  /** Per-request timeouts, in milliseconds. */
  readonly indexTimeoutMs: number;
  readonly downloadTimeoutMs: number;
  /** How long a fetched index is used before it is fetched again. */
  readonly refreshMs: number;
  /** The entry each listed skill is read under, by the skill's path (`<cache folder>/SKILL.md`). */
  readonly held: Map<string, WellKnownEntry>;
  /** Downloads under way, by digest, which concurrent reads share. */
  readonly downloads: Map<string, Promise<void>>;
  last: SkillSourceScan | undefined;
  lastSignature: string;
  version: number;
  listedAt: number;
  listing: Promise<SkillSourceScan> | undefined;
}
