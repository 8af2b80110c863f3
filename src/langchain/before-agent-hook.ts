import { HumanMessage, type BaseMessage, type BeforeAgentHook } from "langchain";
import { applySkillOperations } from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { stateForBackend } from "./graph-context.js";
import { messageTexts } from "./message-text.js";
import type { MiddlewareContext, SkillsStateSchema } from "./middleware-context.js";
import { invokeUserCommands } from "./skill-invocations.js";
import type { SkillsStateView } from "./skills-state.js";
import { skillsFromParent } from "./subagent-inheritance.js";

const INHERITED_NOTE = "(The agent that gave you this task had this skill loaded; it is loaded here too.)";

/**
 * Refreshes the catalog once per invocation and writes it only when it changed (an unchanged
 * re-scan is cheap), then turns a user's `/name args` into the skill's instructions.
 */
export function createBeforeAgentHook(context: MiddlewareContext): BeforeAgentHook<SkillsStateSchema> {
  const { engine } = context;
  return async (state, runtime) => {
    const view = state as SkillsStateView;
    const request = context.requestFor(view, runtime);
    const catalog = await context.catalogFor({ ...runtime, state: stateForBackend(state) });
    const refreshed = await engine.refresh(catalog, request.state, request.emit);
    const operations: SkillOperation[] = refreshed?.operations ?? [];
    // Only the version goes into the thread: the catalog itself stays in this process.
    const update: Record<string, unknown> = refreshed ? { _skillsCatalogVersion: refreshed.version } : {};
    const messages: BaseMessage[] = [];
    let current = refreshed ? { ...request.state, catalogVersion: refreshed.version } : request.state;
    // A subagent whose parent hands its skills down starts with them, before its own commands.
    const parent = skillsFromParent();
    if (parent) {
      const inherited = await engine.inherit(
        { ...request, state: applySkillOperations(current, operations) },
        parent,
        messageTexts(view.messages ?? []),
      );
      operations.push(...inherited.operations);
      messages.push(
        ...inherited.instructions.map(
          (content) =>
            new HumanMessage({
              content: `${content}\n${INHERITED_NOTE}`,
              additional_kwargs: { skillset_inherited: true },
            }),
        ),
      );
    }
    if (context.options.userInvocation) {
      current = applySkillOperations(current, operations);
      const invoked = await invokeUserCommands(
        context,
        { ...request, state: current },
        (view.messages ?? []) as BaseMessage[],
        runtime,
      );
      operations.push(...invoked.operations);
      messages.push(...invoked.messages);
    }
    if (messages.length > 0) update.messages = messages;
    if (operations.length > 0) Object.assign(update, { skillsLoaded: operations, skillResources: operations });
    return Object.keys(update).length > 0 ? update : undefined;
  };
}
