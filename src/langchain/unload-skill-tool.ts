import { tool, type ToolRuntime } from "langchain";
import { UNLOAD_SKILL } from "../core/tools/skill-tool-definitions.js";
import { siblingSkillCalls, toolResult } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { SkillsStateView } from "./skills-state.js";

/** `unload_skill`: planned with the other skill calls of the same AI message, as `load_skill` is. */
export function createUnloadSkillTool(context: MiddlewareContext) {
  return tool(
    async (input, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      return toolResult(
        context.engine.unload(
          context.requestFor(state, runtime),
          { ...UNLOAD_SKILL.engineInput(input), id },
          siblingSkillCalls(state.messages ?? [], id),
        ),
        id,
        UNLOAD_SKILL.name,
      );
    },
    { name: UNLOAD_SKILL.name, description: UNLOAD_SKILL.description, schema: UNLOAD_SKILL.input },
  );
}
