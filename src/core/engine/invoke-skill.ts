import { isUserInvocable, parseSkillCommand, type SkillCommand } from "../instructions/skill-command.js";
import type { SkillInvocation, SkillRequest, SkillStep, SkillThreadState } from "./skill-engine-types.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import { invocationResultText } from "../tools/skill-tool-messages.js";
import { applySkillOperations } from "./apply-skill-operations.js";
import type { EngineContext } from "./engine-context.js";
import { forkStep, forks } from "./fork-step.js";
import { prepareSkill } from "./prepare-skill.js";

/**
 * A user's `/name args`: the skill is read and rendered as for a load, and counts as loaded; with
 * every slot taken, the least recently loaded skill makes room, since the user asked for this one.
 */
export async function invokeSkill(
  context: EngineContext,
  request: SkillRequest,
  command: SkillCommand,
): Promise<SkillStep> {
  const { skill } = command;
  if (!isUserInvocable(skill))
    return { ok: false, text: `Error: Skill '${skill.name}' cannot be invoked by the user (user-invocable: false).` };
  const prepared = await prepareSkill(context, request, skill, command.arguments);
  if ("error" in prepared) return { ok: false, text: prepared.error };
  if (forks(context, skill)) return forkStep(skill, prepared, command.arguments);
  const { maxLoaded } = context;
  const loaded = request.state.loaded;
  const evicted = !loaded.includes(skill.name) && loaded.length >= maxLoaded ? loaded[0] : undefined;
  const operations: SkillOperation[] = evicted
    ? [{ kind: "unload", skill: evicted }, prepared.operation]
    : [prepared.operation];
  if (evicted) {
    context.emit(request, {
      level: "info",
      event: "skill_unloaded",
      message: `Skill '${evicted}' unloaded to make room for the user's /${skill.name}`,
      skill: evicted,
      reason: "user-invocation",
    });
  }
  context.emit(request, {
    level: "info",
    event: "skill_invoked",
    message: `Skill '${skill.name}' invoked by the user (${prepared.resources} resources discovered)`,
    skill: skill.name,
    arguments: command.arguments,
  });
  return {
    ok: true,
    text: invocationResultText(prepared.content, skill.name, command.arguments, evicted, maxLoaded),
    operations,
  };
}

/**
 * Every `/name args` among a user's messages, each invoked on the state the one before left; a
 * failed one keeps the user's text with a note, so nothing the user typed is lost.
 */
export async function invokeCommands(
  context: EngineContext,
  request: SkillRequest,
  texts: readonly (string | undefined)[],
  invoke: (request: SkillRequest, command: SkillCommand) => Promise<SkillStep>,
): Promise<{ state: SkillThreadState; operations: SkillOperation[]; invocations: SkillInvocation[] }> {
  let state = request.state;
  const operations: SkillOperation[] = [];
  const invocations: SkillInvocation[] = [];
  for (const [at, text] of texts.entries()) {
    const command =
      text === undefined ? undefined : parseSkillCommand(text, context.catalogs.renderingOf(state).byName);
    if (!command) continue;
    const step = await invoke({ ...request, state }, command);
    const fork = step.ok && step.fork ? { fork: { ...step.fork, operations: step.operations } } : {};
    invocations.push({
      at,
      command,
      ok: step.ok,
      text: step.ok ? step.text : `${text}\n\n[skillset: /${command.skill.name} could not be invoked. ${step.text}]`,
      ...fork,
    });
    if (!step.ok || step.fork) continue;
    operations.push(...step.operations);
    state = applySkillOperations(state, step.operations);
  }
  return { state, operations, invocations };
}
