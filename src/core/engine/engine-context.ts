import { DEFAULT_CATALOG_BUDGET } from "../catalog/render-catalog.js";
import { emitSkillsEvent, type SkillsLogEntry, type SkillsLogger } from "../skill-events.js";
import type { SkillEngineOptions, SkillRequest } from "./skill-engine-types.js";
import type { SkillLocation, SkillMetadata } from "../skill-file/skill-metadata.js";
import { parentFolder } from "../text/path-separator.js";
import { createLexicalRanker, type SkillRanker } from "../search/skill-search.js";
import type { AllowedToolsPolicy } from "../tools/tool-policy.js";
import { createCatalogCache, type CatalogCache } from "./catalog-cache.js";
import { createCodeModeContext, type CodeModeContext } from "./code-mode-context.js";

/** The tool hosts offer for skills the catalog leaves out; the catalog and refusals point to it. */
export const SEARCH_TOOL = "search_skills";

/**
 * What every part of one engine shares: its options, resolved once, and its caches. It holds no
 * per-thread data (a thread's state arrives with each request), so one context serves every thread.
 */
export interface EngineContext {
  /** As given; the fields not resolved below are read where they are used. */
  readonly options: SkillEngineOptions;
  readonly maxLoaded: number;
  readonly policy: AllowedToolsPolicy;
  readonly readTool: string;
  readonly skillLocation: (skill: SkillMetadata) => SkillLocation;
  readonly logger: SkillsLogger | undefined;
  /** Most tokens the catalog may take; `undefined`: no limit. */
  readonly budget: number | undefined;
  /** When hosts offer `search_skills`. */
  readonly offer: "auto" | "always" | "never";
  readonly rankers: readonly SkillRanker[];
  /** Catalogs by version, with what is derived from them. */
  readonly catalogs: CatalogCache;
  /** Catalog snapshots whose discovery was logged already, so it is logged once, not once per thread. */
  readonly announced: WeakSet<object>;
  /** Code mode (`run_code`), when the app turned it on. */
  readonly code: CodeModeContext | undefined;
  /** Sends an entry to the engine's logger and the request's own sink. */
  emit(request: Pick<SkillRequest, "emit">, entry: SkillsLogEntry): void;
}

/** Resolves `options` into an {@link EngineContext} with empty caches. */
export function createEngineContext(options: SkillEngineOptions): EngineContext {
  const logger = options.logger;
  const given = options.search?.offer ?? "auto";
  return {
    options,
    maxLoaded: options.maxLoadedSkills ?? 10,
    policy: options.allowedToolsPolicy ?? "recommend",
    readTool: options.resourceReadTool ?? "read_file",
    skillLocation: options.skillLocation ?? sourceLocation,
    logger,
    budget: options.catalogBudget === false ? undefined : (options.catalogBudget ?? DEFAULT_CATALOG_BUDGET),
    offer: given === true ? "always" : given === false ? "never" : given,
    rankers: options.search?.rankers ?? [createLexicalRanker()],
    catalogs: createCatalogCache(),
    announced: new WeakSet<object>(),
    code: createCodeModeContext(options.codeMode),
    emit: (request, entry) => emitSkillsEvent(logger, request.emit, entry),
  };
}

// A skill's files as its source names them.
function sourceLocation(skill: SkillMetadata): SkillLocation {
  return { file: skill.path, folder: parentFolder(skill.path) };
}
