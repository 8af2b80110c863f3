import { HumanMessage, type BaseMessage } from "langchain";
import { applySkillOperations, type SkillRequest, type SkillStep } from "../core/engine/skill-engine.js";
import { emitSkillsEvent } from "../core/skill-events.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import type { SkillCommand } from "../core/instructions/skill-command.js";
import { withSkillTools } from "./loaded-skill-tools.js";
import { firstText, replaceFirstText } from "./message-text.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { PendingFork } from "./fork-requests.js";
import type { PinnedSkill } from "./skills-state.js";

/** What invocations add to the thread: skill operations, and the messages that carry the skills. */
export interface Invocations {
  operations: SkillOperation[];
  messages: BaseMessage[];
}

/** A skill invoked as a user's `/name args`, with what it says about the tools the skill brings. */
export async function invokeSkill(
  context: MiddlewareContext,
  request: SkillRequest,
  command: SkillCommand,
  runtime: unknown,
): Promise<SkillStep> {
  return withSkillTools(context, await context.engine.invoke(request, command), request, runtime);
}

/**
 * The user's trailing messages (those after the last answer) that start with `/name`, each
 * replaced by the skill's instructions. A forked skill keeps the user's text; its task waits in
 * the message for the model call.
 */
export async function invokeUserCommands(
  context: MiddlewareContext,
  request: SkillRequest,
  messages: readonly BaseMessage[],
  runtime: unknown,
): Promise<Invocations> {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.type === "human") first--;
  const trailing = messages.slice(first);
  const texts = trailing.map((message) => firstText(message.content));
  const { operations, invocations } = await context.engine.invokeCommands(request, texts, (next, command) =>
    invokeSkill(context, next, command, runtime),
  );
  const replaced = invocations.map(({ at, command, text, fork }) => {
    const message = trailing[at]!;
    return new HumanMessage({
      ...(message.id !== undefined ? { id: message.id } : {}),
      content: fork ? message.content : replaceFirstText(message.content, text),
      additional_kwargs: {
        ...message.additional_kwargs,
        skillset_command: { text: texts[at], skill: command.skill.name, arguments: command.arguments },
        ...(fork ? { skillset_fork: { ...fork, task: text } satisfies PendingFork } : {}),
      },
    });
  });
  return { operations, messages: replaced };
}

/**
 * Each pinned skill as a user's `/name args` would be: its instructions as a user message, or
 * a message saying why it could not be invoked (never dropped).
 */
export async function invokePinned(
  context: MiddlewareContext,
  request: SkillRequest,
  pins: readonly PinnedSkill[],
  runtime: unknown,
): Promise<Invocations> {
  const operations: SkillOperation[] = [];
  const messages: BaseMessage[] = [];
  let state = request.state;
  for (const pin of pins) {
    const name = typeof pin === "string" ? pin : pin.name;
    const args = typeof pin === "string" ? "" : (pin.arguments ?? "");
    const command = /^[^\s/]+$/.test(name) ? context.engine.parseCommand(`/${name} ${args}`, state) : undefined;
    let step: SkillStep;
    if (command) {
      step = await invokeSkill(context, { ...request, state }, command, runtime);
    } else {
      step = {
        ok: false,
        text: `Error: No skill named '${name}' that the application may invoke (it is not in the catalog, or it is user-invocable: false).`,
      };
      emitSkillsEvent(context.options.logger, request.emit, {
        level: "warn",
        event: "skill_refused",
        message: `Pinned skill '${name}' refused: not a skill the application may invoke`,
        skill: name,
        reason: "pinned-unknown",
      });
    }
    const fork =
      step.ok && step.fork
        ? { skillset_fork: { ...step.fork, operations: step.operations, task: step.text } satisfies PendingFork }
        : {};
    const content = !step.ok
      ? `[skillset: the application pinned the skill '${name}', which could not be invoked. ${step.text}]`
      : step.fork
        ? `[skillset: the application invoked /${name}${args ? ` ${args}` : ""} in a forked agent]`
        : step.text;
    messages.push(
      new HumanMessage({ content, additional_kwargs: { skillset_pinned: { skill: name, arguments: args }, ...fork } }),
    );
    if (step.ok && !step.fork) {
      operations.push(...step.operations);
      state = applySkillOperations(state, step.operations);
    }
  }
  return { operations, messages };
}
