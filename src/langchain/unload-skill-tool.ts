import { tool, type ToolRuntime } from "langchain";
import { z } from "zod";
import { UNLOAD_SKILL_DESCRIPTION } from "../core/tools/skill-tool-messages.js";
import { siblingSkillCalls, toolResult } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";
import { UNLOAD_SKILL_TOOL } from "./middleware-tool-names.js";
import type { SkillsStateView } from "./skills-state.js";

/** `unload_skill`: planned with the other skill calls of the same AI message, as `load_skill` is. */
export function createUnloadSkillTool(context: MiddlewareContext) {
  return tool(
    async ({ skill_name: skill }: { skill_name: string }, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      return toolResult(
        context.engine.unload(
          context.requestFor(state, runtime),
          { skill, id },
          siblingSkillCalls(state.messages ?? [], id),
        ),
        id,
        UNLOAD_SKILL_TOOL,
      );
    },
    {
      name: UNLOAD_SKILL_TOOL,
      description: UNLOAD_SKILL_DESCRIPTION,
      schema: z.object({ skill_name: z.string().describe("Name of the loaded skill to unload.") }),
    },
  );
}
