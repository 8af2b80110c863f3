import { tool, ToolMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import { LOAD_SKILL_DESCRIPTION } from "../core/tools/skill-tool-messages.js";
import { errorMessage, siblingSkillCalls, toolResult } from "./engine-translation.js";
import { withSkillTools } from "./loaded-skill-tools.js";
import type { MiddlewareContext } from "./middleware-context.js";
import { LOAD_SKILL_TOOL } from "./middleware-tool-names.js";
import { runForkedSkill } from "./run-forked-skill.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * `load_skill`: the engine plans the load with the other skill calls of the same AI message, so
 * parallel loads agree on the budget. A `context: fork` skill runs in its agent instead, and
 * only its answer comes back.
 */
export function createLoadSkillTool(context: MiddlewareContext) {
  return tool(
    async (
      { skill_name: skill, arguments: args }: { skill_name: string; arguments?: string | undefined },
      runtime: ToolRuntime,
    ) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      const request = context.requestFor(state, runtime);
      const parent = context.forkParents.take(id);
      const step = await context.engine.load(
        request,
        { skill, id, ...(args !== undefined ? { arguments: args } : {}) },
        siblingSkillCalls(state.messages ?? [], id),
      );
      if (step.ok && step.fork) {
        const outcome = await runForkedSkill(context, {
          fork: step.fork,
          task: step.text,
          operations: step.operations,
          state,
          request,
          runtime,
          parent,
        });
        return outcome.ok
          ? new ToolMessage({ content: outcome.text, tool_call_id: id, name: LOAD_SKILL_TOOL })
          : errorMessage(outcome.text, id, LOAD_SKILL_TOOL);
      }
      return toolResult(await withSkillTools(context, step, request, runtime), id, LOAD_SKILL_TOOL);
    },
    {
      name: LOAD_SKILL_TOOL,
      description: LOAD_SKILL_DESCRIPTION,
      schema: z.object({
        skill_name: z.string().describe("Name of the skill to load, from the skills list."),
        arguments: z
          .string()
          .optional()
          .describe("Arguments for the skill, as a user would type them after /name (see the skill's argument hint)."),
      }),
    },
  );
}
