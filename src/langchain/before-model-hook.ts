import type { BeforeModelHook } from "langchain";
import type { MiddlewareContext, SkillsStateSchema } from "./middleware-context.js";
import { invokePinned } from "./skill-invocations.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * Invokes the skills the application pins (in `invoke`'s input or a tool's `Command`) before the
 * model call that follows, then clears the key.
 */
export function createBeforeModelHook(context: MiddlewareContext): BeforeModelHook<SkillsStateSchema> {
  return async (state, runtime) => {
    const view = state as SkillsStateView;
    if (!view.pinnedSkills?.length) return undefined;
    const invoked = await invokePinned(context, context.requestFor(view, runtime), view.pinnedSkills, runtime);
    const operations = invoked.operations.length > 0 ? { skillsLoaded: invoked.operations, skillResources: invoked.operations } : {};
    return { pinnedSkills: [], messages: invoked.messages, ...operations };
  };
}
