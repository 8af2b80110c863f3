import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillOperation } from "./skill-operations.js";
import type { SkillResource } from "../resources/skill-resources.js";
import { skillsInTexts } from "./restore-dropped-skills.js";
import { loadResultOf, loadedSkillMarker } from "../tools/skill-tool-messages.js";

/** What a parent agent hands a subagent it starts: its loaded skills and the texts its model saw. */
export interface InheritedSkills {
  /** The parent's loaded skills, in load order. */
  loaded: readonly string[];
  resources: Readonly<Record<string, readonly SkillResource[]>>;
  /** The parent's message texts (load results and invocations among them), oldest first. */
  texts: readonly string[];
}

/** How a subagent takes over its parent's skills. */
export interface InheritancePlan {
  /** Loads of the inherited skills, with the parent's resources. */
  operations: SkillOperation[];
  /** The parent's instruction texts of the inherited skills the subagent does not see yet, one per skill. */
  instructions: string[];
  inherited: string[];
  /** Parent skills left behind, and why. */
  skipped: Array<{ skill: string; reason: "not-in-catalog" | "no-slot" }>;
}

/**
 * Which of the parent's loaded skills a subagent starts with: those its own catalog has, the
 * most recently loaded first when its slots run out. Each keeps the parent's rendered
 * instructions (arguments and dynamic context as the parent's model read them); a skill whose
 * text the parent no longer has is re-attached from its file by the system prompt instead.
 */
export function planInheritance(
  parent: InheritedSkills,
  child: { loaded: readonly string[]; maxLoaded: number; visibleTexts: readonly string[] },
  byName: ReadonlyMap<string, SkillMetadata>,
): InheritancePlan {
  const plan: InheritancePlan = { operations: [], instructions: [], inherited: [], skipped: [] };
  const candidates = parent.loaded.filter((name) => !child.loaded.includes(name));
  let free = child.maxLoaded - child.loaded.length;
  const taken: string[] = [];
  for (const name of [...candidates].reverse()) {
    if (!byName.has(name)) plan.skipped.push({ skill: name, reason: "not-in-catalog" });
    else if (free <= 0) plan.skipped.push({ skill: name, reason: "no-slot" });
    else {
      taken.unshift(name);
      free--;
    }
  }
  const visible = skillsInTexts(child.visibleTexts);
  for (const name of taken) {
    plan.operations.push({ kind: "load", skill: name, resources: [...(parent.resources[name] ?? [])] });
    plan.inherited.push(name);
    if (visible.has(name)) continue;
    const text = parent.texts.findLast((entry) => entry.startsWith(loadedSkillMarker(name) + " "));
    if (text !== undefined) plan.instructions.push(loadResultOf(text));
  }
  return plan;
}
