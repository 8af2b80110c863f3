import type { SkillFork, SkillStep } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { forkTaskText } from "../tools/skill-tool-messages.js";
import type { EngineContext } from "./engine-context.js";
import type { PreparedSkill } from "./prepare-skill.js";

/** Whether the host runs `skill` in a forked agent: a `context: fork` skill, with `forkSkills` on. */
export function forks(context: EngineContext, skill: SkillMetadata | undefined): boolean {
  return context.options.forkSkills === true && skill?.context === "fork";
}

/**
 * A forked skill's step: its text is the fork's task, and its load operation belongs to the
 * fork's state, so the thread's slots stay as they are.
 */
export function forkStep(
  skill: SkillMetadata,
  prepared: Pick<PreparedSkill, "content" | "operation">,
  invokedWith?: string,
): SkillStep {
  const fork: SkillFork = {
    skill: skill.name,
    ...(skill.agent !== undefined ? { agent: skill.agent } : {}),
    allowedTools: skill.allowedTools,
  };
  return {
    ok: true,
    text: forkTaskText(prepared.content, skill.name, invokedWith),
    operations: [prepared.operation],
    fork,
  };
}
