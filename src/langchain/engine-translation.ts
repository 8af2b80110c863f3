import { Command, getConfig } from "@langchain/langgraph";
import { ToolMessage } from "langchain";
import type { SkillCall } from "../core/loaded/plan-skill-calls.js";
import type { SkillStep, SkillThreadState } from "../core/engine/skill-engine.js";
import { LOAD_SKILL_TOOL, UNLOAD_SKILL_TOOL } from "./middleware-tool-names.js";
import type { SkillsStateView } from "./skills-state.js";

/** The thread's skills as the engine sees them, from the middleware's graph state. */
export function threadState(state: SkillsStateView): SkillThreadState {
  return {
    ...(state._skillsCatalogVersion ? { catalogVersion: state._skillsCatalogVersion } : {}),
    loaded: state.skillsLoaded ?? [],
    resources: state.skillResources ?? {},
  };
}

/** The running graph's `thread_id`, if it runs in one (a tool or hook sees it only through the config). */
export function threadId(): string | undefined {
  try {
    const id = getConfig()?.configurable?.thread_id;
    return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A skill tool's result: a success writes its skill operations to the state next to the
 * message; a refusal is an error message and changes nothing.
 */
export function toolResult(step: SkillStep, toolCallId: string, name: string): Command | ToolMessage {
  if (!step.ok) return errorMessage(step.text, toolCallId, name);
  return new Command({
    update: {
      skillsLoaded: step.operations,
      skillResources: step.operations,
      messages: [new ToolMessage({ content: step.text, tool_call_id: toolCallId, name })],
    },
  });
}

/** A refusal the model reads: tool-facing errors are messages, never exceptions. */
export function errorMessage(content: string, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}

/**
 * The skill calls of the AI message that made this call, in the message's order: every call of
 * one step sees the same message, so all of them plan the same way.
 */
export function siblingSkillCalls(messages: readonly unknown[], callId: string): SkillCall[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const toolCalls = (
      messages[index] as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }
    ).tool_calls;
    if (!toolCalls?.some((call) => call.id === callId)) continue;
    return toolCalls.flatMap((call) =>
      (call.name === LOAD_SKILL_TOOL || call.name === UNLOAD_SKILL_TOOL) &&
      call.id &&
      typeof call.args.skill_name === "string"
        ? [
            {
              id: call.id,
              action: call.name === LOAD_SKILL_TOOL ? ("load" as const) : ("unload" as const),
              skill: call.args.skill_name,
            },
          ]
        : [],
    );
  }
  return [];
}
