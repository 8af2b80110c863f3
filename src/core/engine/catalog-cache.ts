import { createCatalog, type Catalog } from "../catalog/catalog.js";
import { catalogView, type CatalogView } from "../catalog/catalog-view.js";
import type { RenderedCatalog } from "../catalog/render-catalog.js";
import type { SkillRequest, SkillThreadState } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillSource } from "../skill-source.js";

/** Threads' catalogs kept in memory, by version. */
export const MAX_CACHED_CATALOGS = 64;

/** One catalog and what the engine derives from it, computed at most once per catalog version. */
export interface Rendering {
  skills: readonly SkillMetadata[];
  byName: ReadonlyMap<string, SkillMetadata>;
  /** The skills the model may load: what search ranks. */
  searchable?: SkillMetadata[];
  /** The catalog section, by the file tools it names (usually one entry). */
  sections?: Map<string, Promise<RenderedCatalog>>;
}

/**
 * The engine's catalogs by version. Derived from a catalog only, keyed by its content hash: safe
 * to share between threads. The threads keep only the version, so this is where their catalog
 * lives; the least recently used go first.
 */
export interface CatalogCache {
  /** The rendering of `version`, cached (or moved to the most recent end) and returned; `byName`, when known, spares making the map. */
  remember(version: string, skills: readonly SkillMetadata[], byName?: ReadonlyMap<string, SkillMetadata>): Rendering;
  /**
   * A state's catalog without waiting: without the version's catalog in memory, nor skills in the
   * state, it is empty here; {@link CatalogCache.resolve} scans the sources again instead.
   */
  renderingOf(state: Pick<SkillThreadState, "skills" | "catalogVersion">): Rendering;
  /** A request's catalog, scanning its sources when only the version is known and not cached. */
  resolve(request: SkillRequest): Promise<Rendering>;
  /** The catalog of a request's sources as they are now: unchanged sources cost their scans, not a new catalog. */
  scan(request: SkillRequest): Promise<CatalogView>;
  /** A host's catalog, which {@link CatalogCache.scan} goes through for its sources. */
  track(catalog: Catalog): void;
}

/** A fresh rendering of `skills`, nothing derived yet. */
export function rendering(
  skills: readonly SkillMetadata[],
  byName: ReadonlyMap<string, SkillMetadata> = new Map(skills.map((skill) => [skill.name, skill])),
): Rendering {
  return { skills, byName };
}

const EMPTY_RENDERING = rendering([]);

/** A {@link CatalogCache} holding at most `capacity` catalogs. */
export function createCatalogCache(capacity = MAX_CACHED_CATALOGS): CatalogCache {
  const renderings = new Map<string, Rendering>();
  const remember = (
    version: string,
    skills: readonly SkillMetadata[],
    byName?: ReadonlyMap<string, SkillMetadata>,
  ): Rendering => {
    let cached = renderings.get(version);
    if (cached !== undefined) renderings.delete(version);
    else cached = rendering(skills, byName);
    if (renderings.size >= capacity) renderings.delete(renderings.keys().next().value!);
    renderings.set(version, cached);
    return cached;
  };
  const renderingOf = (state: Pick<SkillThreadState, "skills" | "catalogVersion">): Rendering => {
    // A catalog without a version was not written by skillset: render it, but do not cache it.
    if (!state.catalogVersion) return rendering(state.skills ?? []);
    if (!state.skills && !renderings.has(state.catalogVersion)) return EMPTY_RENDERING;
    return remember(state.catalogVersion, state.skills ?? []);
  };
  // Hosts hand their catalog's list of sources with every request: scanned through that catalog
  // (or one kept per list), unchanged sources give its last snapshot, whose view is memoised, where
  // a new catalog merged and hashed the whole library again (at 100,000 skills, 0.2–0.3 s a miss).
  const catalogs = new WeakMap<readonly SkillSource[], Catalog>();
  const scan = async (request: SkillRequest): Promise<CatalogView> => {
    const sources = await request.sources();
    let catalog = catalogs.get(sources);
    if (!catalog) catalogs.set(sources, (catalog = createCatalog(sources)));
    return catalogView(await catalog.refresh());
  };
  const resolve = async (request: SkillRequest): Promise<Rendering> => {
    const { state } = request;
    if (state.skills || !state.catalogVersion || renderings.has(state.catalogVersion)) return renderingOf(state);
    const view = await scan(request);
    return view.version === state.catalogVersion ? remember(view.version, view.skills, view.byName) : rendering([]);
  };
  const track = (catalog: Catalog) => {
    if (!catalogs.has(catalog.sources)) catalogs.set(catalog.sources, catalog);
  };
  return { remember, renderingOf, resolve, scan, track };
}

/** The skills of `catalog` the model may load (not `disable-model-invocation`), derived once. */
export function searchableSkills(catalog: Rendering): SkillMetadata[] {
  return (catalog.searchable ??= catalog.skills.filter((skill) => !skill.disableModelInvocation));
}

/** The loaded skills, in load order, as `catalog` describes them; names it lacks are left out. */
export function loadedSkillsOf(state: Pick<SkillThreadState, "loaded">, catalog: Rendering): SkillMetadata[] {
  return state.loaded.flatMap((name) => catalog.byName.get(name) ?? []);
}
