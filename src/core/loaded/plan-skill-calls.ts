/** One `load_skill` or `unload_skill` call of an AI message. */
export interface SkillCall {
  id: string;
  action: "load" | "unload";
  skill: string;
}

/** What happens to one call; every refusal says why, so the model can act on it. */
export type SkillCallDecision =
  | { outcome: "load" }
  | { outcome: "unload" }
  | { outcome: "not-found" }
  | { outcome: "already-loaded"; inThisStep: boolean }
  | { outcome: "busy"; otherAction: "load" | "unload" }
  | { outcome: "budget"; loaded: string[]; takenInThisStep: string[] }
  | { outcome: "not-loaded"; loaded: string[] };

/** Inputs of {@link planSkillCalls}. */
export interface SkillCallContext {
  /** Loaded skills before this step, in load order. */
  loaded: readonly string[];
  /** Whether the model may load a skill: it exists and is not for users only. */
  isAvailable(skill: string): boolean;
  maxLoaded: number;
}

/**
 * Decides every skill call of one AI message at once, in the message's order.
 * Parallel tool calls all see the state from before the step; because each call computes the
 * same plan from the same inputs, they agree without talking to each other, the budget holds
 * however many loads arrive together, and every refused call learns why. A load that later
 * fails to read only leaves its slot unused.
 */
export function planSkillCalls(calls: readonly SkillCall[], context: SkillCallContext): Map<string, SkillCallDecision> {
  const decisions = new Map<string, SkillCallDecision>();
  const loaded = [...context.loaded];
  const touched = new Map<string, "load" | "unload">();
  const takenInThisStep: string[] = [];
  for (const call of calls) {
    if (decisions.has(call.id)) continue;
    const other = touched.get(call.skill);
    if (call.action === "load") {
      if (!context.isAvailable(call.skill)) decisions.set(call.id, { outcome: "not-found" });
      else if (other === "unload") decisions.set(call.id, { outcome: "busy", otherAction: "unload" });
      else if (loaded.includes(call.skill))
        decisions.set(call.id, { outcome: "already-loaded", inThisStep: other === "load" });
      else if (loaded.length >= context.maxLoaded) {
        decisions.set(call.id, {
          outcome: "budget",
          loaded: [...context.loaded],
          takenInThisStep: [...takenInThisStep],
        });
      } else {
        loaded.push(call.skill);
        takenInThisStep.push(call.skill);
        touched.set(call.skill, "load");
        decisions.set(call.id, { outcome: "load" });
      }
    } else if (other === "load") {
      decisions.set(call.id, { outcome: "busy", otherAction: "load" });
    } else if (!loaded.includes(call.skill)) {
      decisions.set(call.id, { outcome: "not-loaded", loaded: [...loaded] });
    } else {
      loaded.splice(loaded.indexOf(call.skill), 1);
      touched.set(call.skill, "unload");
      decisions.set(call.id, { outcome: "unload" });
    }
  }
  return decisions;
}
