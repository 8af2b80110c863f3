import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { EngineContext } from "./engine-context.js";

/**
 * Runs the engine's `verifySkill` on a skill about to be loaded or invoked, or whose file is about
 * to be read, script run or module imported (`action`, for the event): a problem is a `skill_unverified` event,
 * and with `refuse` the model-facing error naming the skill and why. A check that throws refuses
 * too: a skill that could not be verified is not a verified one.
 */
export async function verificationRefusal(
  context: EngineContext,
  request: Pick<SkillRequest, "emit">,
  skill: SkillMetadata,
  action: "loaded" | "read" | "run" | "imported" = "loaded",
): Promise<string | undefined> {
  const problem = await verificationProblem(context, request, skill, action);
  return (
    problem &&
    `Error: ${problem}. It cannot be used until it passes verification; continue without it and tell the user.`
  );
}

/**
 * {@link verificationRefusal}'s check and event, with only why the skill is refused
 * (`Skill 'x' is refused: …`), for hosts that serve its files themselves (an MCP server's resources).
 */
export async function verificationProblem(
  context: EngineContext,
  request: Pick<SkillRequest, "emit">,
  skill: SkillMetadata,
  action: "loaded" | "read" | "run" | "imported",
): Promise<string | undefined> {
  const verify = context.options.verifySkill;
  if (!verify) return undefined;
  let verdict: { refuse: boolean; reason: string } | undefined;
  try {
    verdict = await verify(skill);
  } catch (error) {
    verdict = {
      refuse: true,
      reason: `it could not be verified (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!verdict) return undefined;
  const { refuse, reason } = verdict;
  const outcome = refuse ? "refused" : `${action} anyway`;
  context.emit(request, {
    level: refuse ? "error" : "warn",
    event: "skill_unverified",
    message: `Skill '${skill.name}' ${outcome}: ${reason}`,
    skill: skill.name,
    path: skill.path,
    reason,
    refused: refuse,
  });
  return refuse ? `Skill '${skill.name}' is refused: ${reason}` : undefined;
}
