import { createMiddleware, type AgentMiddleware } from "langchain";
import { createBeforeAgentHook } from "./before-agent-hook.js";
import { createBeforeModelHook } from "./before-model-hook.js";
import { createLoadSkillTool } from "./load-skill-tool.js";
import { createMiddlewareContext, type MiddlewareContext } from "./middleware-context.js";
import type { MiddlewareToolName } from "./middleware-tool-names.js";
import { createReadResourceTool, createRunScriptTool } from "./resource-tools.js";
import { createRunCodeTool } from "./run-code-tool.js";
import { createSearchSkillsTool } from "./search-skills-tool.js";
import { createSkillHookParts } from "./skill-hooks-middleware-part.js";
import { parseSkillsMiddlewareOptions, type SkillsMiddlewareOptions } from "./skills-middleware-options.js";
import { skillsStateSchema } from "./skills-state.js";
import { createTextProtocolHooks } from "./text-protocol-middleware.js";
import { createUnloadSkillTool } from "./unload-skill-tool.js";
import { createWrapModelCallHook } from "./wrap-model-call-hook.js";
import { createWrapToolCallHook } from "./wrap-tool-call-hook.js";

export { ALWAYS_ALLOWED_TOOLS, type SkillsMiddlewareOptions } from "./skills-middleware-options.js";

/** The middleware's name. deepagents merges middleware by name, so this replaces its built-in one. */
export const SKILLS_MIDDLEWARE_NAME = "SkillsMiddleware";

// Where each of the middleware's own tools is built; `middlewareToolNames` says which are offered.
const TOOL_FACTORIES = {
  load_skill: createLoadSkillTool,
  unload_skill: createUnloadSkillTool,
  search_skills: createSearchSkillsTool,
  read_skill_resource: (context: MiddlewareContext) => createReadResourceTool(context.engine, context.requestFor),
  run_skill_script: (context: MiddlewareContext) => createRunScriptTool(context.engine, context.requestFor),
  run_code: createRunCodeTool,
} satisfies Record<MiddlewareToolName, (context: MiddlewareContext) => unknown>;

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
  const settings = parseSkillsMiddlewareOptions(options);
  // The forks' agents run this middleware too; it exists only once assembled below.
  const self: { middleware?: AgentMiddleware } = {};
  const context = createMiddlewareContext(settings, () => self.middleware!);
  const tools = context.toolNames.map((name) => TOOL_FACTORIES[name](context));
  const text =
    settings.protocol === "text"
      ? createTextProtocolHooks({
          engine: context.engine,
          requestFor: context.requestFor,
          scripts: settings.runScripts !== undefined,
          maxDescriptionLength: settings.maxDescriptionLength,
          catalogBudget: settings.catalogBudget,
          ...(settings.catalogPriority ? { catalogPriority: settings.catalogPriority } : {}),
          searchSkills: settings.searchSkills,
        })
      : undefined;
  const skillHooks = settings.hooks
    ? createSkillHookParts({
        engine: context.engine,
        requestFor: context.requestFor,
        ...settings.hooks,
        logger: settings.logger,
      })
    : undefined;
  const withSkillHooks = <M extends { wrapToolCall?: unknown; afterModel?: unknown }>(middleware: M): M =>
    skillHooks
      ? {
          ...middleware,
          wrapToolCall: skillHooks.wrapToolCall(middleware.wrapToolCall),
          afterModel: skillHooks.afterModel,
        }
      : middleware;

  const middleware = withSkillHooks(
    createMiddleware({
      name: SKILLS_MIDDLEWARE_NAME,
      stateSchema: skillsStateSchema,
      tools: text ? [] : [...tools, ...(context.skillTools?.registered ?? [])],
      afterModel: text?.afterModel,
      beforeModel: createBeforeModelHook(context),
      beforeAgent: createBeforeAgentHook(context),
      // The text protocol puts its catalog and its instructions in the prompt, and offers no tools.
      wrapModelCall: text
        ? async (request, handler) => text.wrapModelCall(request, handler)
        : createWrapModelCallHook(context),
      wrapToolCall: createWrapToolCallHook(context),
    }),
  );
  self.middleware = middleware as unknown as AgentMiddleware;
  return middleware;
}
