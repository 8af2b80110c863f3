import type { LanguageModelLike } from "@langchain/core/language_models/base";
import type { ClientTool, ServerTool } from "@langchain/core/tools";
import type { AgentMiddleware } from "langchain";
import { createCatalog, type Catalog } from "../core/catalog/catalog.js";
import {
  createSkillEngine,
  type SkillEngine,
  type SkillFileTools,
  type SkillRequest,
} from "../core/engine/skill-engine.js";
import type { SkillsLogger } from "../core/skill-events.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../core/skill-source.js";
import { TEXT_PROTOCOL_READ_HINT } from "../core/text-protocol/text-protocol-prompt.js";
import { RUN_CODE } from "../core/tools/skill-tool-definitions.js";
import { lazyLockfileVerifier } from "../node/skills-lock/lazy-lockfile-verifier.js";
import { createBackendSource, type SkillsBackend } from "../sources/backend-source.js";
import { namesFolder } from "../sources/string-source-kind.js";
import { agentFileTools } from "./agent-file-tools.js";
import { createCodeCallTools } from "./code-call-tools.js";
import { threadId, threadState } from "./engine-translation.js";
import { stateForBackend } from "./graph-context.js";
import {
  LOAD_SKILL_TOOL,
  middlewareToolNames,
  SEARCH_SKILLS_TOOL,
  UNLOAD_SKILL_TOOL,
  type MiddlewareToolName,
} from "./middleware-tool-names.js";
import { createForkParents, type ForkParents } from "./fork-requests.js";
import { createForkRunner, type ForkRunner } from "./skill-fork.js";
import { createSkillModelSelector } from "./skill-model.js";
import { createSkillToolProvider, type SkillToolProvider } from "./skill-tools.js";
import { ALWAYS_ALLOWED_TOOLS, type ParsedSkillsMiddlewareOptions } from "./skills-middleware-options.js";
import type { skillsStateSchema, SkillsStateView } from "./skills-state.js";

/** The middleware's state schema, which types its hooks. */
export type SkillsStateSchema = typeof skillsStateSchema;

/**
 * What every part of one skills middleware shares, built once by `createSkillsMiddleware` and
 * passed to each tool and hook. It holds nothing of a thread's: that lives in graph state, and
 * what is here is derived from the options and the sources only, so threads may share it.
 */
export interface MiddlewareContext {
  options: ParsedSkillsMiddlewareOptions;
  engine: SkillEngine;
  /** The middleware's own tools, in the order the agent gets them. */
  toolNames: readonly MiddlewareToolName[];
  /** Tools `"restrict"` never blocks. */
  alwaysAllowed: ReadonlySet<string>;
  /** The skills catalog a run reads, from its runtime (a backend factory binds it to the run). */
  catalogFor(runtime: unknown): Promise<Catalog>;
  /** LangChain's state and runtime, as the engine sees a request. */
  requestFor(state: SkillsStateView, runtime: object): SkillRequest;
  /** The tools skills bring (`skillTools`). */
  skillTools: SkillToolProvider | undefined;
  /** The model a loaded skill names (`models`). */
  selectModel:
    ((loaded: readonly SkillMetadata[], emit: SkillsLogger | undefined) => LanguageModelLike | undefined) | undefined;
  /** Runs `context: fork` skills; absent when they load like any other. */
  runFork: ForkRunner | undefined;
  forkParents: ForkParents;
  /**
   * The file tools found at the latest model call (see `agentFileTools`), for the tool calls that
   * follow it; before any, the defaults of the options. The agent's tools are fixed, so threads share it.
   */
  fileTools: { current: SkillFileTools | undefined };
  /** With `codeMode`: the tools each `run_code` call's model call offered, which its code may reach. */
  codeCallTools: ReturnType<typeof createCodeCallTools<ClientTool | ServerTool>>;
}

/**
 * Builds the context from the parsed options. `middleware` gives the finished middleware, which
 * forks add to their agents; it exists only once the parts built from this context are assembled.
 */
export function createMiddlewareContext(
  options: ParsedSkillsMiddlewareOptions,
  middleware: () => AgentMiddleware,
): MiddlewareContext {
  const textProtocol = options.protocol === "text";
  const alwaysAllowed = new Set<string>([
    LOAD_SKILL_TOOL,
    UNLOAD_SKILL_TOOL,
    SEARCH_SKILLS_TOOL,
    ...ALWAYS_ALLOWED_TOOLS,
    ...options.alwaysAllowedTools,
    // run_code itself: under "restrict", each tool its code calls is checked instead.
    ...(options.codeMode !== false ? [RUN_CODE.name] : []),
  ]);
  const engine = createSkillEngine({
    maxLoadedSkills: options.maxLoadedSkills,
    allowedToolsPolicy: options.allowedToolsPolicy,
    maxDescriptionLength: options.maxDescriptionLength,
    resourceReadTool: textProtocol
      ? (options.resourceReadTool ?? TEXT_PROTOCOL_READ_HINT)
      : agentFileTools(options, new Set())!.read,
    scriptRunTool: options.scriptRunTool ?? (options.runScripts ? "run_skill_script" : undefined),
    guidance: options.systemPrompt,
    scripts: options.runScripts,
    dynamicContext: options.dynamicContext,
    logger: options.logger,
    catalogBudget: options.catalogBudget,
    catalogPriority: options.catalogPriority,
    search: { offer: textProtocol ? false : options.searchSkills, rankers: options.searchRankers },
    forkSkills: !textProtocol && options.forkAgents !== false,
    ...(options.lockfile === undefined ? {} : { verifySkill: lazyLockfileVerifier(options.lockfile) }),
    ...(options.codeMode === false ? {} : { codeMode: options.codeMode === true ? {} : options.codeMode }),
  });
  const catalogFor = createCatalogFor(options);
  const fileTools: MiddlewareContext["fileTools"] = { current: undefined };
  const requestFor = (state: SkillsStateView, runtime: object): SkillRequest => {
    const writer = (runtime as { writer?: (chunk: unknown) => void }).writer;
    const request: SkillRequest = {
      state: threadState(state),
      sources: async () => (await catalogFor({ ...runtime, state: stateForBackend(state) })).sources,
    };
    const sessionId = threadId();
    if (sessionId !== undefined) request.sessionId = sessionId;
    if (fileTools.current) request.fileTools = fileTools.current;
    if (writer) request.emit = (entry) => writer({ type: "skillset", ...entry });
    return request;
  };
  const toolNames = middlewareToolNames(options);
  const skillTools = options.skillTools
    ? createSkillToolProvider(options.skillTools, toolNames, options.logger)
    : undefined;
  const ownTools = new Set<string>(toolNames);
  const runFork =
    !textProtocol && options.forkAgents !== false
      ? createForkRunner({
          agents: options.forkAgents,
          middleware,
          isMiddlewareTool: (name) => ownTools.has(name) || skillTools?.isSkillTool(name) === true,
          alwaysAllowed,
          ...options.forkLimits,
          logger: options.logger,
        })
      : undefined;
  return {
    options,
    engine,
    toolNames,
    alwaysAllowed,
    catalogFor,
    requestFor,
    skillTools,
    selectModel: options.models ? createSkillModelSelector(options.models, options.logger) : undefined,
    runFork,
    forkParents: createForkParents(),
    fileTools,
    codeCallTools: createCodeCallTools(),
  };
}

// Sources over a fixed backend or local folders are shared by every thread: they hold only
// what they read from the skills. A backend factory is bound to one run, so it gets fresh ones;
// packages and sites are not on a backend, so every run shares theirs.
function createCatalogFor(options: ParsedSkillsMiddlewareOptions): (runtime: unknown) => Promise<Catalog> {
  let sharedCatalog: Promise<Catalog> | undefined;
  let entries: Promise<Array<string | SkillSource>> | undefined;
  const withPackagesAndSites = () => (entries ??= readPackagesAndSites(options.sources, options.recursive));
  return (runtime) => {
    const backend = options.backend;
    if (typeof backend === "function")
      return withPackagesAndSites().then((list) =>
        buildCatalog(list, () => backend(runtime as never), options.recursive),
      );
    sharedCatalog ??= withPackagesAndSites().then((list) => buildCatalogShared(list, backend, options.recursive));
    return sharedCatalog;
  };
}

// `npm:` and `https://` strings as their sources; the strings left name folders.
async function readPackagesAndSites(
  entries: ReadonlyArray<string | SkillSource>,
  recursive: boolean,
): Promise<Array<string | SkillSource>> {
  const named = (entry: string | SkillSource): entry is string => typeof entry === "string" && !namesFolder(entry);
  if (!entries.some(named)) return [...entries];
  const { sourceFromString } = await import("../sources/source-from-string.js");
  return entries.map((entry) => (named(entry) ? sourceFromString(entry, { recursive }) : entry));
}

function buildCatalog(
  entries: ReadonlyArray<string | SkillSource>,
  backend: () => SkillsBackend | Promise<SkillsBackend>,
  recursive: boolean,
): Catalog {
  return createCatalog(
    entries.map((entry) =>
      typeof entry === "string" ? createBackendSource({ backend, path: entry, recursive }) : entry,
    ),
  );
}

async function buildCatalogShared(
  entries: ReadonlyArray<string | SkillSource>,
  backend: SkillsBackend | undefined,
  recursive: boolean,
): Promise<Catalog> {
  if (backend) return buildCatalog(entries, () => backend, recursive);
  // Loaded only when sources are strings, so the adapter itself is not Node-only.
  const strings = entries.some((entry) => typeof entry === "string")
    ? await import("../sources/source-from-string.js")
    : undefined;
  return createCatalog(strings ? strings.sourcesFromStrings(entries, { recursive }) : (entries as SkillSource[]));
}
