import { tool, ToolMessage, type ToolRuntime } from "langchain";
import { LOAD_SKILL } from "../core/tools/skill-tool-definitions.js";
import { errorMessage, siblingSkillCalls, toolResult } from "./engine-translation.js";
import { withSkillTools } from "./loaded-skill-tools.js";
import type { MiddlewareContext } from "./middleware-context.js";
import { runForkedSkill } from "./run-forked-skill.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * `load_skill`: the engine plans the load with the other skill calls of the same AI message, so
 * parallel loads agree on the budget. A `context: fork` skill runs in its agent instead, and
 * only its answer comes back.
 */
export function createLoadSkillTool(context: MiddlewareContext) {
  return tool(
    async (input, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const id = runtime.toolCallId;
      const request = context.requestFor(state, runtime);
      const parent = context.forkParents.take(id);
      const step = await context.engine.load(
        request,
        { ...LOAD_SKILL.engineInput(input), id },
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
          ? new ToolMessage({ content: outcome.text, tool_call_id: id, name: LOAD_SKILL.name })
          : errorMessage(outcome.text, id, LOAD_SKILL.name);
      }
      return toolResult(await withSkillTools(context, step, request, runtime), id, LOAD_SKILL.name);
    },
    { name: LOAD_SKILL.name, description: LOAD_SKILL.description, schema: LOAD_SKILL.input },
  );
}
