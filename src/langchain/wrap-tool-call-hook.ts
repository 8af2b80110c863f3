import type { WrapToolCallHook } from "langchain";
import { undisclosedToolMessage } from "../core/tools/included-tools.js";
import { errorMessage } from "./engine-translation.js";
import { disclosedSkillTools } from "./loaded-skill-tools.js";
import { messageTexts } from "./message-text.js";
import type { MiddlewareContext, SkillsStateSchema } from "./middleware-context.js";
import type { SkillsStateView } from "./skills-state.js";
import { handDownSkills } from "./subagent-inheritance.js";

/**
 * A skill tool runs only while a loaded skill discloses it (as of this step's start); then the
 * `allowed-tools` restriction. Under "inherit", an agent the call starts as a subgraph finds this
 * thread's skills. Absent when there is nothing to gate and nothing to hand down.
 */
export function createWrapToolCallHook(context: MiddlewareContext): WrapToolCallHook<SkillsStateSchema> | undefined {
  const { engine, skillTools, options } = context;
  const gatesTools = skillTools !== undefined || options.allowedToolsPolicy === "restrict";
  const inheritSkills = options.subagentSkills === "inherit";
  if (!gatesTools && !inheritSkills) return undefined;
  return async (request, handler) => {
    const gate = async () => {
      if (!gatesTools) return handler(request);
      const name = request.toolCall.name;
      const skills = context.requestFor(request.state as SkillsStateView, request.runtime);
      if (skillTools?.isSkillTool(name)) {
        const disclosed = (await disclosedSkillTools(context, skills, request.runtime)).find(
          (entry) => entry.name === name,
        );
        if (!disclosed) return errorMessage(undisclosedToolMessage(name), request.toolCall.id ?? "", name);
        request = { ...request, tool: disclosed };
      }
      const refusal = engine.toolRefusal(skills, name, context.alwaysAllowed);
      return refusal === undefined ? handler(request) : errorMessage(refusal, request.toolCall.id ?? "", name);
    };
    const state = request.state as SkillsStateView;
    if (!inheritSkills || !state.skillsLoaded?.length) return gate();
    const namespace = (request.runtime as { configurable?: { checkpoint_ns?: unknown } }).configurable?.checkpoint_ns;
    return handDownSkills(
      namespace,
      () => ({
        loaded: state.skillsLoaded ?? [],
        resources: state.skillResources ?? {},
        texts: messageTexts(state.messages ?? []),
      }),
      gate,
    );
  };
}
