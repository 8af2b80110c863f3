import type { SkillThreadState } from "./skill-engine-types.js";
import { applyToLoaded, applyToResources, type SkillOperation } from "../loaded/skill-operations.js";
import type { SkillResource } from "../resources/skill-resources.js";

/** A thread's state after `operations`, for hosts that keep the state themselves. */
export function applySkillOperations(state: SkillThreadState, operations: readonly SkillOperation[]): SkillThreadState {
  if (operations.length === 0) return state;
  return {
    ...state,
    loaded: applyToLoaded(state.loaded, operations),
    resources: applyToResources(state.resources as Record<string, SkillResource[]>, operations),
  };
}
