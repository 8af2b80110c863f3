import type { ClientTool } from "@langchain/core/tools";
import { SkillsetError } from "../errors/skillset-error.js";
import { applySkillOperations, type SkillRequest, type SkillStep } from "../core/engine/skill-engine.js";
import { emitSkillsEvent } from "../core/skill-events.js";
import { disclosedTools, includedTools, skillToolsNote } from "../core/tools/included-tools.js";
import { threadId } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";

/**
 * The tool objects of the loaded skills' tools, in the order `disclosedTools` gives. A tool that
 * cannot be resolved (a clash found only now, in a resumed thread) is left out with an event.
 */
export async function disclosedSkillTools(
  context: MiddlewareContext,
  request: SkillRequest,
  runtime: unknown,
): Promise<ClientTool[]> {
  const { skillTools, engine } = context;
  if (!skillTools) return [];
  const loaded = await engine.loadedSkills(request);
  const byName = new Map<string, ClientTool>();
  for (const skill of loaded) {
    try {
      for (const entry of (await skillTools.resolve(skill, threadId() ?? "", runtime)).tools)
        byName.set(entry.name, entry);
    } catch (error) {
      emitSkillsEvent(context.options.logger, request.emit, {
        level: "error",
        event: "skill_tools_unavailable",
        message: String((error as Error).message ?? error),
        skill: skill.name,
      });
    }
  }
  return disclosedTools(loaded).flatMap((name) => byName.get(name) ?? []);
}

/**
 * A successful load or invocation, with what it says about the tools the skill brings; a
 * resolver's clashing tool makes it a refusal.
 */
export async function withSkillTools(
  context: MiddlewareContext,
  step: SkillStep,
  request: SkillRequest,
  runtime: unknown,
): Promise<SkillStep> {
  const { skillTools, engine } = context;
  if (!skillTools || !step.ok) return step;
  const loadedName = step.operations.findLast((operation) => operation.kind === "load")?.skill;
  const loaded = await engine.loadedSkills({ ...request, state: applySkillOperations(request.state, step.operations) });
  const skill = loaded.find((entry) => entry.name === loadedName);
  if (!skill || includedTools(skill).length === 0) return step;
  try {
    const { unavailable } = await skillTools.resolve(skill, threadId() ?? "", runtime);
    return { ...step, text: `${step.text}\n\n${skillToolsNote(includedTools(skill), unavailable)}` };
  } catch (error) {
    const message = SkillsetError.isInstance(error) ? error.message : String(error);
    emitSkillsEvent(context.options.logger, request.emit, {
      level: "error",
      event: "skill_tools_unavailable",
      message,
      skill: skill.name,
    });
    return { ok: false, text: `Error: Skill '${skill.name}' cannot be used in this agent: ${message}` };
  }
}
