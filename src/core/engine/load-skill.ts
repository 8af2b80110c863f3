import type { SkillCall } from "../loaded/plan-skill-calls.js";
import type { SkillRequest, SkillStep } from "./skill-engine-types.js";
import type { Rendering } from "./catalog-cache.js";
import { planCall, refuseLoad } from "./call-planner.js";
import type { EngineContext } from "./engine-context.js";
import { forkStep, forks } from "./fork-step.js";
import { prepareSkill } from "./prepare-skill.js";

/**
 * The model's `load_skill`: planned against the budget with the other calls of its step, then
 * read and rendered; the step carries the load operation for the host to record.
 */
export async function loadSkill(
  context: EngineContext,
  request: SkillRequest,
  call: { skill: string; arguments?: string; id: string },
  calls: readonly SkillCall[] | undefined,
): Promise<SkillStep> {
  let catalog = await context.catalogs.resolve(request);
  if (!catalog.byName.has(call.skill)) catalog = (await rescan(context, request)) ?? catalog;
  const decision = planCall(context, request.state, catalog, { id: call.id, action: "load", skill: call.skill }, calls);
  const skill = catalog.byName.get(call.skill);
  const refusal = await refuseLoad(context, request, call.skill, decision, catalog);
  if (refusal || !skill) return refusal ?? { ok: false, text: `Error: Skill '${call.skill}' not found.` };
  const prepared = await prepareSkill(context, request, skill, call.arguments);
  if ("error" in prepared) return { ok: false, text: prepared.error };
  if (forks(context, skill)) return forkStep(skill, prepared);
  const slotsUsed = request.state.loaded.length + 1;
  const { maxLoaded } = context;
  context.emit(request, {
    level: "info",
    event: "skill_loaded",
    message: `Skill '${skill.name}' loaded (${prepared.resources} resources discovered)`,
    skill: skill.name,
    resources: prepared.resources,
    slotsUsed,
    maxLoaded,
  });
  return { ok: true, text: prepared.content, operations: [prepared.operation] };
}

// A skill written during this run (deepagents' skill-creator flow, skills as memory) is not in the
// thread's catalog yet. An unchanged re-scan is cheap, so the sources are asked again before
// refusing; the host records the new catalog version at its next model call.
async function rescan(context: EngineContext, request: SkillRequest): Promise<Rendering | undefined> {
  const { skills, version, byName } = await context.catalogs.scan(request);
  return version === request.state.catalogVersion ? undefined : context.catalogs.remember(version, skills, byName);
}
