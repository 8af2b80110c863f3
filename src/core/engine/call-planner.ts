import { planSkillCalls, type SkillCall, type SkillCallDecision } from "../loaded/plan-skill-calls.js";
import type { SkillRequest, SkillStep, SkillThreadState } from "./skill-engine-types.js";
import { refusalMessage } from "../tools/skill-tool-messages.js";
import { searchableSkills, type Rendering } from "./catalog-cache.js";
import { SEARCH_TOOL, type EngineContext } from "./engine-context.js";
import { offersSearch, searchSkills } from "./engine-search.js";
import { forks } from "./fork-step.js";
import { CLOSEST_SKILLS, MAX_LISTED_SKILLS, nameQuery } from "../search/closest-skills.js";

/**
 * The decision on one `load_skill` / `unload_skill` call, planned with every skill call of its
 * step (`calls`) so that parallel calls agree on the budget.
 */
export function planCall(
  context: EngineContext,
  state: SkillThreadState,
  { byName }: Rendering,
  own: SkillCall,
  calls: readonly SkillCall[] | undefined,
): SkillCallDecision {
  // A skill only the user may invoke is unknown to the model.
  const isAvailable = (name: string) => byName.get(name)?.disableModelInvocation !== true && byName.has(name);
  // A forked skill takes no slot: it is planned alone, and other calls do not count it.
  if (own.action === "load" && forks(context, byName.get(own.skill)))
    return { outcome: isAvailable(own.skill) ? "load" : "not-found" };
  const others = calls?.filter(
    (call) => call.action !== "load" || call.id === own.id || !forks(context, byName.get(call.skill)),
  );
  const step = others?.some((call) => call.id === own.id) ? others : [own];
  return planSkillCalls(step, { loaded: state.loaded, maxLoaded: context.maxLoaded, isAvailable }).get(own.id)!;
}

/** The refused step for a decision that refuses, with a `skill_refused` event; `undefined` when it goes ahead. */
export function refuse(
  context: EngineContext,
  request: SkillRequest,
  tool: string,
  skill: string,
  decision: SkillCallDecision,
  available: readonly string[] = [],
  closest?: { names: readonly string[]; searchTool?: string },
): SkillStep | undefined {
  if (decision.outcome === "load" || decision.outcome === "unload") return undefined;
  const text = refusalMessage(skill, decision, {
    available,
    maxLoaded: context.maxLoaded,
    ...(closest ? { closest } : {}),
  })!;
  context.emit(request, {
    level: "warn",
    event: "skill_refused",
    message: `${tool}('${skill}') refused: ${decision.outcome}`,
    skill,
    reason: decision.outcome,
  });
  return { ok: false, text };
}

/** {@link refuse} for `load_skill`: a load of an unknown skill names the skills there are or, in a large catalog, the closest. */
export async function refuseLoad(
  context: EngineContext,
  request: SkillRequest,
  skill: string,
  decision: SkillCallDecision,
  catalog: Rendering,
): Promise<SkillStep | undefined> {
  if (decision.outcome !== "not-found") return refuse(context, request, "load_skill", skill, decision);
  const available = searchableSkills(catalog);
  if (available.length <= MAX_LISTED_SKILLS)
    return refuse(
      context,
      request,
      "load_skill",
      skill,
      decision,
      available.map((entry) => entry.name),
    );
  const names = (await searchSkills(context, catalog, nameQuery(skill), CLOSEST_SKILLS)).map((hit) => hit.name);
  return refuse(context, request, "load_skill", skill, decision, [], {
    names,
    ...((await offersSearch(context, request, catalog)) ? { searchTool: SEARCH_TOOL } : {}),
  });
}
