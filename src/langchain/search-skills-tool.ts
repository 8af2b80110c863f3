import { tool, type ToolRuntime } from "langchain";
import { SEARCH_SKILLS } from "../core/tools/skill-tool-definitions.js";
import { errorMessage } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { SkillsStateView } from "./skills-state.js";

/** `search_skills`: finds skills the catalog in the prompt leaves out when it is over its budget. */
export function createSearchSkillsTool(context: MiddlewareContext) {
  return tool(
    async (input, runtime: ToolRuntime) => {
      const reply = await context.engine.search(
        context.requestFor(runtime.state as SkillsStateView, runtime),
        SEARCH_SKILLS.engineInput(input),
      );
      return reply.ok ? reply.text : errorMessage(reply.text, runtime.toolCallId, SEARCH_SKILLS.name);
    },
    { name: SEARCH_SKILLS.name, description: SEARCH_SKILLS.description, schema: SEARCH_SKILLS.input },
  );
}
