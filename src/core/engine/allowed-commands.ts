import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/**
 * A skill's `allowed-tools` read as a command allow-list, for its scripts and its dynamic context
 * alike; a skill that declares none gets the default.
 */
export function allowedCommandsOf(skill: SkillMetadata, defaults: readonly string[]): readonly string[] {
  return skill.allowedTools.length > 0 ? skill.allowedTools : defaults;
}
