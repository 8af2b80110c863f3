import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/** A skill a user may invoke as `/name args`: what a UI needs for its `/` menu. */
export interface InvocableSkill {
  name: string;
  description: string;
  /** Claude Code's `argument-hint`, e.g. `[issue-number]`. */
  argumentHint?: string;
}

/** A user's `/name args` that names a skill the user may invoke. */
export interface SkillCommand {
  skill: SkillMetadata;
  /** Everything after the name, trimmed; `""` when nothing followed. */
  arguments: string;
}

/** Whether a user may invoke the skill: all may, unless `user-invocable: false`. */
export function isUserInvocable(skill: Pick<SkillMetadata, "userInvocable">): boolean {
  return skill.userInvocable !== false;
}

/** The skills a user may invoke, in catalog order, with description and argument hint. */
export function listInvocableSkills(skills: readonly SkillMetadata[]): InvocableSkill[] {
  return skills.filter(isUserInvocable).map((skill) => ({
    name: skill.name,
    description: skill.description,
    ...(skill.argumentHint !== undefined ? { argumentHint: skill.argumentHint } : {}),
  }));
}

/**
 * Reads `/name args` at the start of a user's message. Only the name of a skill the user may
 * invoke counts, followed by the end or whitespace; anything else (`/etc/hosts`, `/unknown`,
 * `/name/x`) is not a command and returns `undefined`, so the message passes through as typed.
 */
export function parseSkillCommand(
  text: string,
  skills: readonly SkillMetadata[] | ReadonlyMap<string, SkillMetadata>,
): SkillCommand | undefined {
  const match = /^\s*\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  const name = match[1]!;
  const skill = "get" in skills ? skills.get(name) : skills.find((entry) => entry.name === name);
  if (!skill || !isUserInvocable(skill)) return undefined;
  return { skill, arguments: (match[2] ?? "").trim() };
}
