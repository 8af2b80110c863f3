import { compareCodePoints } from "../text/python-text.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// Lists of skills found in name order as they were collected, so the catalog need not go through
// them again: at 100,000 skills that pass alone held the event loop for 20 ms (each skill a cache
// miss by then). Weak, so a list is forgotten with its scan.
const known = new WeakSet<readonly SkillMetadata[]>();

/** Records that every name in `skills` sorts strictly after the one before; `skills` is not changed afterwards. */
export function markInNameOrder(skills: readonly SkillMetadata[]): void {
  known.add(skills);
}

/** Whether every name sorts strictly after the one before, by code point, as the snapshot lists them (so none repeats). */
export function inNameOrder(skills: readonly SkillMetadata[]): boolean {
  if (known.has(skills)) return true;
  for (let at = 1; at < skills.length; at++)
    if (compareCodePoints(skills[at - 1]!.name, skills[at]!.name) >= 0) return false;
  return true;
}
