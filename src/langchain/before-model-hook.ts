import type { BeforeModelHook } from "langchain";
import { applySkillOperations } from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { catchUpCatalog } from "./catalog-catch-up.js";
import type { MiddlewareContext, SkillsStateSchema } from "./middleware-context.js";
import { invokePinned } from "./skill-invocations.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * Before each model call: records a catalog that changed within the run (a skill the agent wrote
 * and loaded), then invokes the skills the application pins (in `invoke`'s input or a tool's
 * `Command`) and clears the key.
 */
export function createBeforeModelHook(context: MiddlewareContext): BeforeModelHook<SkillsStateSchema> {
  return async (state, runtime) => {
    const view = state as SkillsStateView;
    let request = context.requestFor(view, runtime);
    const update: Record<string, unknown> = {};
    const operations: SkillOperation[] = [];
    const refreshed = await catchUpCatalog(context, view, request, runtime);
    if (refreshed) {
      update._skillsCatalogVersion = refreshed.version;
      operations.push(...refreshed.operations);
      request = {
        ...request,
        state: applySkillOperations({ ...request.state, catalogVersion: refreshed.version }, refreshed.operations),
      };
    }
    if (view.pinnedSkills?.length) {
      const invoked = await invokePinned(context, request, view.pinnedSkills, runtime);
      operations.push(...invoked.operations);
      Object.assign(update, { pinnedSkills: [], messages: invoked.messages });
    }
    if (operations.length > 0) Object.assign(update, { skillsLoaded: operations, skillResources: operations });
    return Object.keys(update).length > 0 ? update : undefined;
  };
}
