import { parseSkillCommand } from "../instructions/skill-command.js";
import type { SkillEngine, SkillEngineOptions } from "./skill-engine-types.js";
import { loadedSkillsOf } from "./catalog-cache.js";
import { catalogSection } from "./catalog-section.js";
import { CODE_MODE_OPTIONS } from "./code-mode-context.js";
import { codeModulesSection } from "./code-mode-prompt.js";
import { createEngineContext } from "./engine-context.js";
import { offersSearch, searchReply } from "./engine-search.js";
import { inheritLoadedSkills } from "./inherit-loaded-skills.js";
import { invokeCommands, invokeSkill } from "./invoke-skill.js";
import { loadSkill } from "./load-skill.js";
import { readSkillResource } from "./read-skill-resource.js";
import { refreshCatalog } from "./refresh-catalog.js";
import { runCode } from "./run-code.js";
import { runSkillScript } from "./run-skill-script.js";
import { systemPrompt } from "./system-prompt.js";
import { toolRefusal } from "./tool-refusal.js";
import { unloadSkill } from "./unload-skill.js";
import { verificationProblem } from "./verify-skill.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";
import { SCRIPT_RULES_OPTIONS } from "../../exec/script-executor.js";

export type { CodeModeOptions, CodeReply, CodeTool, CodeToolContext, CodeTools } from "./code-mode-types.js";
export type {
  CatalogRefresh,
  SkillEngine,
  SkillEngineOptions,
  SkillFileTools,
  SkillFork,
  SkillInvocation,
  SkillReply,
  SkillRequest,
  SkillSearchReply,
  SkillSearchResult,
  SkillStep,
  SkillThreadState,
  SkillVerification,
} from "./skill-engine-types.js";
export { applySkillOperations } from "./apply-skill-operations.js";

// The engine's parts live in `engine/`, one step of the lifecycle each: a `load_skill` call is
// planned in `call-planner.ts`, read in `skill-reader.ts`, rendered in `prepare-skill.ts`, and its
// operation returned to the host from `load-skill.ts`. What they share (options resolved once, the
// catalog cache) is the `EngineContext` made here, passed to each part explicitly.

const ENGINE_OPTIONS = {
  maxLoadedSkills: true,
  allowedToolsPolicy: true,
  guidance: true,
  maxDescriptionLength: true,
  resourceReadTool: true,
  scriptRunTool: true,
  skillLocation: true,
  scripts: SCRIPT_RULES_OPTIONS,
  dynamicContext: SCRIPT_RULES_OPTIONS,
  catalogBudget: true,
  catalogPriority: true,
  search: { offer: true, rankers: true } satisfies KnownOptions<NonNullable<SkillEngineOptions["search"]>>,
  forkSkills: true,
  verifySkill: true,
  codeMode: CODE_MODE_OPTIONS,
  logger: true,
} as const satisfies KnownOptions<SkillEngineOptions>;

/**
 * Creates a {@link SkillEngine}.
 *
 * @throws SkillsetError `unknown-option` for an option key it does not know.
 */
export function createSkillEngine(options: SkillEngineOptions = {}): SkillEngine {
  refuseUnknownOptions("createSkillEngine", options, ENGINE_OPTIONS);
  const context = createEngineContext(options);
  const { catalogs } = context;
  const engine: SkillEngine = {
    maxLoaded: context.maxLoaded,
    refresh: (catalog, state, sink) => refreshCatalog(context, catalog, state, sink),
    currentCatalog: (request) => catalogs.scan(request),
    systemPrompt: (request, visibleTexts) => systemPrompt(context, request, visibleTexts),
    catalog: async (request) => catalogSection(context, request, await catalogs.resolve(request)),
    offersSearch: async (request) => offersSearch(context, request, await catalogs.resolve(request)),
    search: (request, input) => searchReply(context, request, input),
    load: (request, call, calls) => loadSkill(context, request, call, calls),
    unload: (request, call, calls) => unloadSkill(context, request, call, calls),
    parseCommand: (text, state) => parseSkillCommand(text, catalogs.renderingOf(state).byName),
    invoke: (request, command) => invokeSkill(context, request, command),
    invokeCommands: (request, texts, invoke = engine.invoke) => invokeCommands(context, request, texts, invoke),
    inherit: (request, parent, visibleTexts) => inheritLoadedSkills(context, request, parent, visibleTexts),
    readResource: (request, input) => readSkillResource(context, request, input),
    runScript: (request, input) => runSkillScript(context, request, input),
    runCode: (request, input, tools = {}, toolContext) => runCode(context, request, input, tools, toolContext),
    codeModules: async (request) =>
      context.code
        ? codeModulesSection(context, request, loadedSkillsOf(request.state, await catalogs.resolve(request)))
        : "",
    releaseCode: (threadId) => {
      const pool = context.code?.existingPool();
      if (threadId === undefined) pool?.close();
      else pool?.release(threadId);
    },
    loadedSkills: async (request) => loadedSkillsOf(request.state, await catalogs.resolve(request)),
    toolRefusal: (request, tool, alwaysAllowed) => toolRefusal(context, request, tool, alwaysAllowed),
    verifyRead: (request, skill) => verificationProblem(context, request, skill, "read"),
  };
  return engine;
}
