import type { SkillCall } from "../loaded/plan-skill-calls.js";
import type { SkillRequest, SkillStep } from "./skill-engine-types.js";
import { unloadResultText } from "../tools/skill-tool-messages.js";
import { planCall, refuse } from "./call-planner.js";
import type { EngineContext } from "./engine-context.js";

/** The model's `unload_skill`, planned with the other calls of its step; synchronous, as it reads nothing. */
export function unloadSkill(
  context: EngineContext,
  request: SkillRequest,
  call: { skill: string; id: string },
  calls: readonly SkillCall[] | undefined,
): SkillStep {
  const decision = planCall(
    context,
    request.state,
    context.catalogs.renderingOf(request.state),
    { id: call.id, action: "unload", skill: call.skill },
    calls,
  );
  const refusal = refuse(context, request, "unload_skill", call.skill, decision);
  if (refusal) return refusal;
  const { maxLoaded } = context;
  const stillLoaded = request.state.loaded.filter((name) => name !== call.skill);
  context.emit(request, {
    level: "info",
    event: "skill_unloaded",
    message: `Skill '${call.skill}' unloaded (${maxLoaded - stillLoaded.length}/${maxLoaded} slots available)`,
    skill: call.skill,
    slotsUsed: stillLoaded.length,
    maxLoaded,
  });
  return {
    ok: true,
    text: unloadResultText(call.skill, stillLoaded, maxLoaded),
    operations: [{ kind: "unload", skill: call.skill }],
  };
}
