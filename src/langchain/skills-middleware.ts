import { Command, getConfig } from "@langchain/langgraph";
import type { ClientTool } from "@langchain/core/tools";
import { createMiddleware, HumanMessage, tool, ToolMessage, type AgentMiddleware, type BaseMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import { createCatalog, type Catalog } from "../core/catalog.js";
import { SkillsetError } from "../core/errors.js";
import type { SkillCall } from "../core/plan-skill-calls.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../core/prompt-markdown.js";
import { applySkillOperations, createSkillEngine, type SkillFork, type SkillRequest, type SkillStep, type SkillThreadState } from "../core/skill-engine.js";
import { emitSkillsEvent, type SkillsLogger } from "../core/skill-events.js";
import type { SkillOperation } from "../core/skill-operations.js";
import type { SkillSource } from "../core/skill-source.js";
import type { SkillCommand } from "../core/skill-command.js";
import { disclosedTools, includedTools, skillToolsNote, undisclosedToolMessage } from "../core/skill-tools.js";
import { DEFAULT_CATALOG_BUDGET, MIN_CATALOG_BUDGET } from "../core/render-catalog.js";
import type { SkillRanker } from "../core/skill-search.js";
import { LOAD_SKILL_DESCRIPTION, SEARCH_SKILLS_DESCRIPTION, UNLOAD_SKILL_DESCRIPTION } from "../core/skill-tool-messages.js";
import { createBackendSource, type SkillsBackend } from "../sources/backend-source.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../exec/command-allow-list.js";
import type { ScriptExecutor } from "../exec/script-executor.js";
import { createSkillModelSelector, type SkillModels } from "./skill-model.js";
import { answerUserForks, createForkParents, createForkRunner, toolName, type ForkAgents, type ForkParent, type PendingFork } from "./skill-fork.js";
import { createSkillHookParts } from "./skill-hooks-middleware-part.js";
import { messagesAfterSummarization, stateForBackend } from "./graph-context.js";
import { createReadResourceTool, createRunScriptTool } from "./resource-tools.js";
import { createSkillToolProvider, type SkillToolsOption } from "./skill-tools.js";
import { skillsStateSchema, type PinnedSkill, type SkillsStateView } from "./skills-state.js";
import { handDownSkills, skillsFromParent } from "./subagent-inheritance.js";
import { createTextProtocolHooks } from "./text-protocol-middleware.js";
import { TEXT_PROTOCOL_READ_HINT } from "../core/text-protocol/text-protocol-prompt.js";

/** The middleware's name. deepagents merges middleware by name, so this replaces its built-in one. */
export const SKILLS_MIDDLEWARE_NAME = "SkillsMiddleware";

const SEARCH_SKILLS_TOOL = "search_skills";
const INHERITED_NOTE = "(The agent that gave you this task had this skill loaded; it is loaded here too.)";

/** Tools that `"restrict"` never blocks, besides the skill tools and `alwaysAllowedTools`. */
export const ALWAYS_ALLOWED_TOOLS = ["read_file", "ls", "glob", "grep", "write_todos", "read_skill_resource", "run_skill_script"] as const;

// `never` accepts every factory signature, e.g. deepagents' `(runtime: BackendRuntime) => backend`.
type BackendFactory = (runtime: never) => SkillsBackend;

const executorSchema = z.custom<ScriptExecutor>((value) => typeof value === "object" && value !== null && typeof (value as ScriptExecutor).run === "function", "a ScriptExecutor");

const optionsSchema = z.object({
  /** Skill sources, lowest precedence first; strings are local folders, or paths on `backend`. */
  sources: z.array(z.union([z.string().min(1), z.custom<SkillSource>(isSkillSource, "a SkillSource")])).min(1),
  /** A deepagents backend, or a factory `(runtime) => backend`, to read string sources through. */
  backend: z.custom<SkillsBackend | BackendFactory>((value) => typeof value === "object" || typeof value === "function").optional(),
  /** Find skills at any depth below each string source. @default false */
  recursive: z.boolean().default(false),
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills: z.number().int().positive().default(10),
  /** `"recommend"` shows `allowed-tools`; `"restrict"` also refuses other tools while skills declare them. @default "recommend" */
  allowedToolsPolicy: z.enum(["recommend", "restrict"]).default("recommend"),
  /** Tool names `"restrict"` never blocks, besides {@link ALWAYS_ALLOWED_TOOLS}. @default [] */
  alwaysAllowedTools: z.array(z.string()).default([]),
  /** Replaces `CATALOG_GUIDANCE` (from `skillset`), the text before the skills list; `{load}` and `{unload}` become the tool names. */
  systemPrompt: z.string().optional(),
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength: z.number().int().positive().default(DEFAULT_MAX_DESCRIPTION_LENGTH),
  /**
   * Add `read_skill_resource`, for agents without file tools (plain `createAgent`). Under
   * deepagents leave it off: the agent reads resources with its own `read_file`.
   * @default false
   */
  readResourceTool: z.boolean().default(false),
  /**
   * Add `run_skill_script`, running commands through `executor` (e.g. `createLocalExecutor()` from
   * `skillset/node`) when the skill's `allowed-tools`, read as a command allow-list, permit them;
   * skills that declare none may run `defaultAllowedCommands` (their `scripts/` files).
   */
  runScripts: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /**
   * A user's message that starts with `/<skill-name>` (a skill the user may invoke) invokes that
   * skill: the model gets its rendered instructions in place of the command, and it counts as loaded.
   * @default true
   */
  userInvocation: z.boolean().default(true),
  /**
   * Run the `` !`command` `` and ```` ```! ```` blocks of a skill's instructions through
   * `executor` when the skill is loaded or invoked, under the script rules (the skill's
   * `allowed-tools` as allow-list, else `defaultAllowedCommands`). Off by default: the model
   * then reads that the command was not run.
   */
  dynamicContext: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /** The tool the model reads resources with, named in the prompt. @default "read_skill_resource" with `readResourceTool`, else "read_file" */
  resourceReadTool: z.string().optional(),
  /** The tool the model runs scripts with, named in the prompt (e.g. deepagents' `execute`). @default "run_skill_script" with `runScripts` */
  scriptRunTool: z.string().optional(),
  /**
   * Most tokens (o200k_base) the skills catalog may take in the system prompt. Over it, lines are
   * shortened, then skills named only, then only counted, and `search_skills` finds them; every
   * skill stays loadable. `false`: no limit.
   * @default 5000
   */
  catalogBudget: z.union([z.number().int().min(MIN_CATALOG_BUDGET), z.literal(false)]).default(DEFAULT_CATALOG_BUDGET),
  /** Skills that keep their catalog lines first when the catalog is over its budget, most important first. */
  catalogPriority: z.array(z.string()).optional(),
  /**
   * Offer `search_skills({ query, limit? })`: `"auto"` while the catalog is over its budget,
   * `true` always, `false` never.
   * @default "auto"
   */
  searchSkills: z.union([z.literal("auto"), z.boolean()]).default("auto"),
  /**
   * Rankers for `search_skills`, fused by reciprocal rank; default the lexical one. E.g.
   * `[createLexicalRanker(), createEmbeddingRanker(embeddings)]` (from `skillset`).
   */
  searchRankers: z.array(z.custom<SkillRanker>((value) => typeof value === "function", "a SkillRanker function")).min(1).optional(),
  /**
   * `"tools"`: the skill tools. `"text"`: for a model bound without tools, the `<use_skill>` text
   * protocol of `createSkillRunner`: no skill tools; the catalog and the instructions in the
   * prompt; after each model call, the reply's instructions run and their results come back as a
   * user message, up to 10 model calls per invocation.
   * @default "tools"
   */
  protocol: z.enum(["tools", "text"]).default("tools"),
  /**
   * Tools that come with skills: a skill names them in `metadata.include_tools` (space-separated)
   * and they are offered only while it is loaded, after the agent's own tools. An array of tools
   * (not also passed as the agent's `tools`), or a resolver `(skillName, runtime) => tools`
   * called at most once per skill and thread. Needs `protocol: "tools"`.
   */
  skillTools: z.union([z.array(z.custom<ClientTool>(isTool, "a LangChain tool")), z.custom<SkillToolsOption>((value) => typeof value === "function")]).optional(),
  /**
   * Chat models that skills name in `model:`, by name (a record, or a function returning one or
   * `undefined`). While a loaded skill names one, model calls run on it (the most recently loaded
   * such skill decides); an unknown name keeps the agent's model, with a `skill_model_unknown`
   * event. Tools protocol only.
   */
  models: z.custom<SkillModels>((value) => typeof value === "function" || (typeof value === "object" && value !== null), "a record of chat models, or a function from a name to one").optional(),
  /**
   * Run the `hooks:` of loaded skills (Claude Code's shape; `PreToolUse`, `PostToolUse`, `Stop`)
   * through `executor`, under the script rules (the skill's `allowed-tools` as allow-list, else
   * `defaultAllowedCommands`). Off without it: hooks are then ignored. Tools protocol only.
   */
  hooks: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /**
   * What a subagent that one of the agent's tool calls starts (deepagents' `task`) begins with:
   * `"isolated"`, no skills loaded; `"inherit"`, the skills loaded here, with their instructions
   * and resources, when it runs this middleware too. Its own loads and unloads never come back.
   * @default "isolated"
   */
  subagentSkills: z.enum(["isolated", "inherit"]).default("isolated"),
  /**
   * Agent types for skills with `context: fork`, by the name in their `agent:` (a record, or a
   * list of named ones such as deepagents' `subagents`). Such a skill runs in a fresh agent
   * instead of the conversation: its rendered instructions are the task, it is loaded there, and
   * only the fork's final answer comes back (as the `load_skill` result, or as the answer to a
   * user's `/name`); it takes no slot here. `"general-purpose"` (the default agent type) is this
   * agent's model and its own tools, limited to the skill's `allowed-tools` when it declares
   * them. `false`: such skills load like any other. Tools protocol only.
   */
  forkAgents: z.union([z.literal(false), z.custom<ForkAgents>((value) => typeof value === "object" && value !== null, "a record or list of agent types")]).optional(),
  /**
   * Bounds of forked skills: the most model calls one fork makes, and how deep forks nest (1: a
   * fork cannot start another).
   * @default { maxSteps: 20, maxDepth: 1 }
   */
  forkLimits: z
    .object({ maxSteps: z.number().int().positive().default(20), maxDepth: z.number().int().positive().default(1) })
    .prefault({}),
  /** Receives structured log entries; nothing is logged without it. */
  logger: z.custom<SkillsLogger>((value) => typeof value === "function").optional(),
});

/** Options of {@link createSkillsMiddleware}. */
export type SkillsMiddlewareOptions = z.input<typeof optionsSchema>;

/**
 * Agent Skills for LangChain.js v1 `createAgent` and deepagents `createDeepAgent`: a catalog in
 * the system prompt, `load_skill` / `unload_skill` tools, loaded skills tracked in graph state
 * under a budget, resources discovered on load, and an optional `allowed-tools` restriction.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [createSkillsMiddleware({ sources: ["./skills"] })] });
 * ```
 */
export function createSkillsMiddleware(options: SkillsMiddlewareOptions) {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new SkillsetError("invalid-options", `createSkillsMiddleware: ${z.prettifyError(parsed.error)}`);
  }
  const settings = parsed.data;
  const textProtocol = settings.protocol === "text";
  if (textProtocol && settings.skillTools) throw new SkillsetError("invalid-options", 'createSkillsMiddleware: skillTools needs protocol: "tools"; the text protocol offers no tools');
  const readTool = settings.resourceReadTool ?? (textProtocol ? TEXT_PROTOCOL_READ_HINT : settings.readResourceTool ? "read_skill_resource" : "read_file");
  const runTool = settings.scriptRunTool ?? (settings.runScripts ? "run_skill_script" : undefined);
  const alwaysAllowed = new Set<string>(["load_skill", "unload_skill", SEARCH_SKILLS_TOOL, ...ALWAYS_ALLOWED_TOOLS, ...settings.alwaysAllowedTools]);
  const engine = createSkillEngine({
    maxLoadedSkills: settings.maxLoadedSkills,
    allowedToolsPolicy: settings.allowedToolsPolicy,
    maxDescriptionLength: settings.maxDescriptionLength,
    resourceReadTool: readTool,
    scriptRunTool: runTool,
    guidance: settings.systemPrompt,
    scripts: settings.runScripts,
    dynamicContext: settings.dynamicContext,
    logger: settings.logger,
    catalogBudget: settings.catalogBudget,
    catalogPriority: settings.catalogPriority,
    search: { offer: textProtocol ? false : settings.searchSkills, rankers: settings.searchRankers },
    forkSkills: !textProtocol && settings.forkAgents !== false,
  });

  // Sources over a fixed backend or local folders are shared by every thread: they hold only
  // what they read from the skills. A backend factory is bound to one run, so it gets fresh ones.
  let sharedCatalog: Promise<Catalog> | undefined;
  const catalogFor = (runtime: unknown): Promise<Catalog> => {
    const backend = settings.backend;
    if (typeof backend === "function") return Promise.resolve(buildCatalog(settings.sources, () => backend(runtime as never), settings.recursive));
    sharedCatalog ??= Promise.resolve().then(() => buildCatalogShared(settings.sources, backend, settings.recursive));
    return sharedCatalog;
  };

  // LangChain's state and runtime, as the engine sees a request.
  const requestFor = (state: SkillsStateView, runtime: object): SkillRequest => {
    const writer = (runtime as { writer?: (chunk: unknown) => void }).writer;
    const request: SkillRequest = {
      state: threadState(state),
      sources: async () => (await catalogFor({ ...runtime, state: stateForBackend(state) })).sources,
    };
    const sessionId = threadId();
    if (sessionId !== undefined) request.sessionId = sessionId;
    if (writer) request.emit = (entry) => writer({ type: "skillset", ...entry });
    return request;
  };

  const loadSkill = tool(
    async ({ skill_name: skill, arguments: args }: { skill_name: string; arguments?: string | undefined }, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      const request = requestFor(state, runtime);
      const parent = forkParents.take(id);
      const step = await engine.load(request, { skill, id, ...(args !== undefined ? { arguments: args } : {}) }, siblingSkillCalls(state.messages ?? [], id));
      if (step.ok && step.fork) {
        const outcome = await forked(step.fork, step.text, step.operations, state, request, runtime, parent);
        return outcome.ok ? new ToolMessage({ content: outcome.text, tool_call_id: id, name: "load_skill" }) : errorMessage(outcome.text, id, "load_skill");
      }
      return toolResult(await withSkillTools(step, request, runtime), id, "load_skill");
    },
    {
      name: "load_skill",
      description: LOAD_SKILL_DESCRIPTION,
      schema: z.object({
        skill_name: z.string().describe("Name of the skill to load, from the skills list."),
        arguments: z.string().optional().describe("Arguments for the skill, as a user would type them after /name (see the skill's argument hint)."),
      }),
    },
  );

  const unloadSkill = tool(
    async ({ skill_name: skill }: { skill_name: string }, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      return toolResult(engine.unload(requestFor(state, runtime), { skill, id }, siblingSkillCalls(state.messages ?? [], id)), id, "unload_skill");
    },
    { name: "unload_skill", description: UNLOAD_SKILL_DESCRIPTION, schema: z.object({ skill_name: z.string().describe("Name of the loaded skill to unload.") }) },
  );

  const searchSkills = tool(
    async ({ query, limit }: { query: string; limit?: number | undefined }, runtime: ToolRuntime) => {
      const reply = await engine.search(requestFor(runtime.state as SkillsStateView, runtime), { query, ...(limit !== undefined ? { limit } : {}) });
      return reply.ok ? reply.text : errorMessage(reply.text, runtime.toolCallId, SEARCH_SKILLS_TOOL);
    },
    {
      name: SEARCH_SKILLS_TOOL,
      description: SEARCH_SKILLS_DESCRIPTION,
      schema: z.object({
        query: z.string().describe("What you need a skill for, in a few words (the task, the file type, the tool)."),
        limit: z.number().int().min(1).max(25).optional().describe("How many skills to return. Default 5."),
      }),
    },
  );

  const selectModel = settings.models ? createSkillModelSelector(settings.models, settings.logger) : undefined;
  if (textProtocol && settings.hooks) throw new SkillsetError("invalid-options", 'createSkillsMiddleware: hooks needs protocol: "tools"');
  const skillHooks = settings.hooks ? createSkillHookParts({ engine, requestFor, ...settings.hooks, logger: settings.logger }) : undefined;
  const withSkillHooks = <M extends { wrapToolCall?: unknown; afterModel?: unknown }>(middleware: M): M => (skillHooks ? { ...middleware, wrapToolCall: skillHooks.wrapToolCall(middleware.wrapToolCall), afterModel: skillHooks.afterModel } : middleware);
  const text = textProtocol
    ? createTextProtocolHooks({
        engine,
        requestFor,
        scripts: settings.runScripts !== undefined,
        maxDescriptionLength: settings.maxDescriptionLength,
        catalogBudget: settings.catalogBudget,
        ...(settings.catalogPriority ? { catalogPriority: settings.catalogPriority } : {}),
        searchSkills: settings.searchSkills,
      })
    : undefined;
  const tools = [
    loadSkill,
    unloadSkill,
    ...(settings.searchSkills !== false ? [searchSkills] : []),
    ...(settings.readResourceTool ? [createReadResourceTool(engine, requestFor)] : []),
    ...(settings.runScripts ? [createRunScriptTool(engine, requestFor)] : []),
  ];

  const skillTools = settings.skillTools ? createSkillToolProvider(settings.skillTools, tools.map((entry) => entry.name), settings.logger) : undefined;
  const gatesTools = skillTools !== undefined || settings.allowedToolsPolicy === "restrict";
  const inheritSkills = settings.subagentSkills === "inherit";
  const ownTools = new Set<string>(tools.map((entry) => entry.name));
  // The fork's agents run this middleware too; it exists only once created below.
  const self: { middleware?: AgentMiddleware } = {};
  const forkParents = createForkParents();
  const runFork =
    !textProtocol && settings.forkAgents !== false
      ? createForkRunner({
          agents: settings.forkAgents,
          middleware: () => self.middleware!,
          isMiddlewareTool: (name) => ownTools.has(name) || skillTools?.isSkillTool(name) === true,
          alwaysAllowed,
          ...settings.forkLimits,
          logger: settings.logger,
        })
      : undefined;

  const middleware = withSkillHooks(createMiddleware({
    name: SKILLS_MIDDLEWARE_NAME,
    stateSchema: skillsStateSchema,
    tools: text ? [] : [...tools, ...(skillTools?.registered ?? [])],
    afterModel: text?.afterModel,

    // Skills the application pins (in `invoke`'s input or a tool's `Command`) are invoked here,
    // before the model call that follows, then the key is cleared.
    beforeModel: async (state, runtime) => {
      const view = state as SkillsStateView;
      if (!view.pinnedSkills?.length) return undefined;
      const invoked = await invokePinned(requestFor(view, runtime), view.pinnedSkills, runtime);
      const operations = invoked.operations.length > 0 ? { skillsLoaded: invoked.operations, skillResources: invoked.operations } : {};
      return { pinnedSkills: [], messages: invoked.messages, ...operations };
    },

    // Refresh the catalog once per invocation and write it only when it changed (an unchanged
    // re-scan is cheap), then turn a user's `/name args` into the skill's instructions.
    beforeAgent: async (state, runtime) => {
      const view = state as SkillsStateView;
      const request = requestFor(view, runtime);
      const catalog = await catalogFor({ ...runtime, state: stateForBackend(state) });
      const refreshed = await engine.refresh(catalog, request.state, request.emit);
      const operations: SkillOperation[] = refreshed?.operations ?? [];
      // Only the version goes into the thread: the catalog itself stays in this process.
      const update: Record<string, unknown> = refreshed ? { _skillsCatalogVersion: refreshed.version } : {};
      const messages: BaseMessage[] = [];
      let current = refreshed ? { ...request.state, catalogVersion: refreshed.version } : request.state;
      // A subagent whose parent hands its skills down starts with them, before its own commands.
      const parent = skillsFromParent();
      if (parent) {
        const inherited = await engine.inherit({ ...request, state: applySkillOperations(current, operations) }, parent, messageTexts(view.messages ?? []));
        operations.push(...inherited.operations);
        messages.push(...inherited.instructions.map((content) => new HumanMessage({ content: `${content}\n${INHERITED_NOTE}`, additional_kwargs: { skillset_inherited: true } })));
      }
      if (settings.userInvocation) {
        current = applySkillOperations(current, operations);
        const invoked = await invokeUserCommands({ ...request, state: current }, (view.messages ?? []) as BaseMessage[], runtime);
        operations.push(...invoked.operations);
        messages.push(...invoked.messages);
      }
      if (messages.length > 0) update.messages = messages;
      if (operations.length > 0) Object.assign(update, { skillsLoaded: operations, skillResources: operations });
      return Object.keys(update).length > 0 ? update : undefined;
    },

    // The stable catalog first, then what loads and unloads change, so provider prompt caches
    // keep the longest prefix.
    wrapModelCall: async (request, handler) => {
      if (text) return text.wrapModelCall(request, handler);
      const skills = requestFor(request.state as SkillsStateView, request.runtime);
      // What a fork started from this call gets of this agent: its own model and tools.
      const parent: ForkParent | undefined = runFork ? { model: request.model, tools: request.tools } : undefined;
      // Checked before any await: this runs on every model call, and a fork is rarely pending.
      const forks =
        parent && request.messages.at(-1)?.type === "human"
          ? await answerUserForks(request.messages as BaseMessage[], (fork) => forked(fork, fork.task, fork.operations, request.state as SkillsStateView, skills, request.runtime, parent))
          : undefined;
      // Only forks asked: their answers are the answer. Else the model answers, knowing theirs.
      if (forks?.answer) return forks.answer;
      if (forks) request = { ...request, messages: forks.messages };
      const finish = (response: Awaited<ReturnType<typeof handler>>) => {
        forkParents.remember(response, parent);
        return forks ? new Command({ update: { messages: forks.answered } }) : response;
      };
      const section = await engine.systemPrompt(skills, () => messageTexts(messagesAfterSummarization(request.messages)));
      const systemMessage = request.systemMessage.concat("\n\n" + section);
      const skillModel = selectModel?.(await engine.loadedSkills(skills), skills.emit);
      if (skillModel) request = { ...request, model: skillModel };
      // "auto": search_skills is offered only while the catalog leaves skills out of sight.
      const hideSearch = settings.searchSkills === "auto" && !(await engine.offersSearch(skills));
      if (!hideSearch && !skillTools) return finish(await handler({ ...request, systemMessage }));
      let offered = hideSearch ? request.tools.filter((entry) => entry.name !== SEARCH_SKILLS_TOOL) : request.tools;
      if (skillTools) {
        // The agent's own tools first, then the disclosed skill tools in load order.
        const clash = offered.find((entry) => skillTools.isSkillTool(toolName(entry)) && !skillTools.registered.includes(entry as ClientTool));
        if (clash) throw new SkillsetError("invalid-options", `createSkillsMiddleware: skillTools: '${toolName(clash)}' is also one of the agent's own tools; rename one of them`);
        offered = offered.filter((entry) => !skillTools.isSkillTool(toolName(entry)));
        skillTools.noteAgentTools(offered.map(toolName));
        offered = [...offered, ...(await disclosedSkillTools(skills, request.runtime))];
      }
      return finish(await handler({ ...request, systemMessage, tools: offered }));
    },

    // A skill tool runs only while a loaded skill discloses it (as of this step's start); then the
    // `allowed-tools` restriction.
    // Under "inherit", an agent the call starts as a subgraph finds this thread's skills.
    wrapToolCall:
      gatesTools || inheritSkills
        ? async (request, handler) => {
            const gate = async () => {
              if (!gatesTools) return handler(request);
              const name = request.toolCall.name;
              const skills = requestFor(request.state as SkillsStateView, request.runtime);
              if (skillTools?.isSkillTool(name)) {
                const disclosed = (await disclosedSkillTools(skills, request.runtime)).find((entry) => entry.name === name);
                if (!disclosed) return errorMessage(undisclosedToolMessage(name), request.toolCall.id ?? "", name);
                request = { ...request, tool: disclosed };
              }
              const refusal = engine.toolRefusal(skills, name, alwaysAllowed);
              return refusal === undefined ? handler(request) : errorMessage(refusal, request.toolCall.id ?? "", name);
            };
            const state = request.state as SkillsStateView;
            if (!inheritSkills || !state.skillsLoaded?.length) return gate();
            const namespace = (request.runtime as { configurable?: { checkpoint_ns?: unknown } }).configurable?.checkpoint_ns;
            return handDownSkills(namespace, () => ({ loaded: state.skillsLoaded ?? [], resources: state.skillResources ?? {}, texts: messageTexts(state.messages ?? []) }), gate);
          }
        : undefined,
  }));
  self.middleware = middleware as unknown as AgentMiddleware;
  return middleware;

  // A forked skill runs in its agent; this thread's skills do not change.
  function forked(fork: SkillFork, task: string, operations: SkillOperation[], state: SkillsStateView, request: SkillRequest, runtime: unknown, parent: ForkParent | undefined): Promise<{ ok: boolean; text: string }> {
    const { writer, signal } = runtime as { writer?: (chunk: unknown) => void; signal?: AbortSignal };
    return runFork!({ fork, task, operations, depth: (state.skillsForkDepth ?? 0) + 1, parent, emit: request.emit, writer, threadId: request.sessionId, signal });
  }

  // The tool objects of the loaded skills' tools, in the order `disclosedTools` gives. A tool that
  // cannot be resolved (a clash found only now, in a resumed thread) is left out with an event.
  async function disclosedSkillTools(request: SkillRequest, runtime: unknown): Promise<ClientTool[]> {
    if (!skillTools) return [];
    const loaded = await engine.loadedSkills(request);
    const byName = new Map<string, ClientTool>();
    for (const skill of loaded) {
      try {
        for (const entry of (await skillTools.resolve(skill, threadId() ?? "", runtime)).tools) byName.set(entry.name, entry);
      } catch (error) {
        emitSkillsEvent(settings.logger, request.emit, { level: "error", event: "skill_tools_unavailable", message: String((error as Error).message ?? error), skill: skill.name });
      }
    }
    return disclosedTools(loaded).flatMap((name) => byName.get(name) ?? []);
  }

  // A successful load or invocation, with what it says about the tools the skill brings; a
  // resolver's clashing tool makes it a refusal.
  async function withSkillTools(step: SkillStep, request: SkillRequest, runtime: unknown): Promise<SkillStep> {
    if (!skillTools || !step.ok) return step;
    const loadedName = step.operations.findLast((operation) => operation.kind === "load")?.skill;
    const loaded = await engine.loadedSkills({ ...request, state: applySkillOperations(request.state, step.operations) });
    const skill = loaded.find((entry) => entry.name === loadedName);
    if (!skill || includedTools(skill).length === 0) return step;
    try {
      const { unavailable } = await skillTools.resolve(skill, threadId() ?? "", runtime);
      return { ...step, text: `${step.text}\n\n${skillToolsNote(includedTools(skill), unavailable)}` };
    } catch (error) {
      const message = SkillsetError.isInstance(error) ? error.message : String(error);
      emitSkillsEvent(settings.logger, request.emit, { level: "error", event: "skill_tools_unavailable", message, skill: skill.name });
      return { ok: false, text: `Error: Skill '${skill.name}' cannot be used in this agent: ${message}` };
    }
  }

  async function invokeSkill(request: SkillRequest, command: SkillCommand, runtime: unknown): Promise<SkillStep> {
    return withSkillTools(await engine.invoke(request, command), request, runtime);
  }

  // Each pinned skill as a user's `/name args` would be: its instructions as a user message, or
  // a message saying why it could not be invoked (never dropped).
  async function invokePinned(request: SkillRequest, pins: readonly PinnedSkill[], runtime: unknown): Promise<{ operations: SkillOperation[]; messages: BaseMessage[] }> {
    const operations: SkillOperation[] = [];
    const messages: BaseMessage[] = [];
    let state = request.state;
    for (const pin of pins) {
      const name = typeof pin === "string" ? pin : pin.name;
      const args = typeof pin === "string" ? "" : (pin.arguments ?? "");
      const command = /^[^\s/]+$/.test(name) ? engine.parseCommand(`/${name} ${args}`, state) : undefined;
      let step: SkillStep;
      if (command) {
        step = await invokeSkill({ ...request, state }, command, runtime);
      } else {
        step = { ok: false, text: `Error: No skill named '${name}' that the application may invoke (it is not in the catalog, or it is user-invocable: false).` };
        emitSkillsEvent(settings.logger, request.emit, { level: "warn", event: "skill_refused", message: `Pinned skill '${name}' refused: not a skill the application may invoke`, skill: name, reason: "pinned-unknown" });
      }
      const fork = step.ok && step.fork ? { skillset_fork: { ...step.fork, operations: step.operations, task: step.text } satisfies PendingFork } : {};
      const content = !step.ok ? `[skillset: the application pinned the skill '${name}', which could not be invoked. ${step.text}]` : step.fork ? `[skillset: the application invoked /${name}${args ? ` ${args}` : ""} in a forked agent]` : step.text;
      messages.push(new HumanMessage({ content, additional_kwargs: { skillset_pinned: { skill: name, arguments: args }, ...fork } }));
      if (step.ok && !step.fork) {
        operations.push(...step.operations);
        state = applySkillOperations(state, step.operations);
      }
    }
    return { operations, messages };
  }

  // The user's trailing messages (those after the last answer) that start with `/name`.
  async function invokeUserCommands(request: SkillRequest, messages: readonly BaseMessage[], runtime: unknown): Promise<{ operations: SkillOperation[]; messages: BaseMessage[] }> {
    let first = messages.length;
    while (first > 0 && messages[first - 1]!.type === "human") first--;
    const trailing = messages.slice(first);
    const texts = trailing.map((message) => firstText(message.content));
    const { operations, invocations } = await engine.invokeCommands(request, texts, (next, command) => invokeSkill(next, command, runtime));
    // A forked skill keeps the user's text; its task waits in the message for the model call.
    const replaced = invocations.map(({ at, command, text, fork }) => {
      const message = trailing[at]!;
      return new HumanMessage({
        ...(message.id !== undefined ? { id: message.id } : {}),
        content: fork ? message.content : replaceFirstText(message.content, text),
        additional_kwargs: {
          ...message.additional_kwargs,
          skillset_command: { text: texts[at], skill: command.skill.name, arguments: command.arguments },
          ...(fork ? { skillset_fork: { ...fork, task: text } satisfies PendingFork } : {}),
        },
      });
    });
    return { operations, messages: replaced };
  }
}

function threadState(state: SkillsStateView): SkillThreadState {
  return {
    ...(state._skillsCatalogVersion ? { catalogVersion: state._skillsCatalogVersion } : {}),
    loaded: state.skillsLoaded ?? [],
    resources: state.skillResources ?? {},
  };
}

function threadId(): string | undefined {
  try {
    const id = getConfig()?.configurable?.thread_id;
    return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

function toolResult(step: SkillStep, toolCallId: string, name: string): Command | ToolMessage {
  if (!step.ok) return errorMessage(step.text, toolCallId, name);
  return new Command({
    update: {
      skillsLoaded: step.operations,
      skillResources: step.operations,
      messages: [new ToolMessage({ content: step.text, tool_call_id: toolCallId, name })],
    },
  });
}

// The skill calls of the AI message that made this call, in the message's order: every call of
// one step sees the same message, so all of them plan the same way.
function siblingSkillCalls(messages: readonly unknown[], callId: string): SkillCall[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const toolCalls = (messages[index] as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }).tool_calls;
    if (!toolCalls?.some((call) => call.id === callId)) continue;
    return toolCalls.flatMap((call) =>
      (call.name === "load_skill" || call.name === "unload_skill") && call.id && typeof call.args.skill_name === "string"
        ? [{ id: call.id, action: call.name === "load_skill" ? ("load" as const) : ("unload" as const), skill: call.args.skill_name }]
        : [],
    );
  }
  return [];
}

// What the model reads of the tool results and user messages, where skill instructions arrive.
function messageTexts(messages: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const message of messages as ReadonlyArray<{ type?: string; content?: unknown }>) {
    const type = message.type;
    const text = type === "tool" || type === "human" ? firstText(message.content) : undefined;
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

function firstText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((entry: { type?: string; text?: unknown }) => entry?.type === "text" && typeof entry.text === "string") as { text: string } | undefined;
  return block?.text;
}

function replaceFirstText(content: BaseMessage["content"], text: string): BaseMessage["content"] {
  if (typeof content === "string") return text;
  let done = false;
  return content.map((block) => {
    if (done || block.type !== "text") return block;
    done = true;
    return { ...block, text };
  }) as BaseMessage["content"];
}

function errorMessage(content: string, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}

function isTool(value: unknown): value is ClientTool {
  return typeof value === "object" && value !== null && typeof (value as ClientTool).name === "string" && typeof (value as ClientTool).invoke === "function";
}

function isSkillSource(value: unknown): value is SkillSource {
  return typeof value === "object" && value !== null && (value as SkillSource).specificationVersion === "v1" && typeof (value as SkillSource).scan === "function";
}

function buildCatalog(entries: ReadonlyArray<string | SkillSource>, backend: () => SkillsBackend, recursive: boolean): Catalog {
  return createCatalog(entries.map((entry) => (typeof entry === "string" ? createBackendSource({ backend, path: entry, recursive }) : entry)));
}

async function buildCatalogShared(entries: ReadonlyArray<string | SkillSource>, backend: SkillsBackend | undefined, recursive: boolean): Promise<Catalog> {
  if (backend) return buildCatalog(entries, () => backend, recursive);
  const needsLocal = entries.some((entry) => typeof entry === "string");
  // Loaded only when string sources name local folders, so the adapter itself is not Node-only.
  const { createLocalSource } = needsLocal ? await import("../sources/local-source.js") : { createLocalSource: undefined };
  return createCatalog(entries.map((entry) => (typeof entry === "string" ? createLocalSource!({ path: entry, recursive }) : entry)));
}
