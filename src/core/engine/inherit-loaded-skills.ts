import { planInheritance, type InheritedSkills } from "../loaded/inherit-skills.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import type { EngineContext } from "./engine-context.js";

/**
 * A subagent's start with its parent's loaded skills: the loads to apply and the parent's texts it
 * does not see; each skill left behind is a `skill_not_inherited` event saying why.
 */
export async function inheritLoadedSkills(
  context: EngineContext,
  request: SkillRequest,
  parent: InheritedSkills,
  visibleTexts: readonly string[],
): Promise<{ operations: SkillOperation[]; instructions: string[] }> {
  const { maxLoaded } = context;
  const { byName } = await context.catalogs.resolve(request);
  const plan = planInheritance(parent, { loaded: request.state.loaded, maxLoaded, visibleTexts }, byName);
  for (const { skill, reason } of plan.skipped) {
    const why = reason === "no-slot" ? `all ${maxLoaded} slots are taken` : "it is not in this agent's catalog";
    context.emit(request, {
      level: "warn",
      event: "skill_not_inherited",
      message: `Skill '${skill}' of the parent agent not inherited: ${why}`,
      skill,
      reason,
    });
  }
  if (plan.inherited.length > 0)
    context.emit(request, {
      level: "info",
      event: "skills_inherited",
      message: `Inherited ${plan.inherited.length} loaded skills from the parent agent: ${plan.inherited.join(", ")}`,
      skills: plan.inherited,
    });
  return { operations: plan.operations, instructions: plan.instructions };
}
