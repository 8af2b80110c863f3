import { AIMessage, HumanMessage, type BaseMessage } from "langchain";
import type { SkillFork } from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { LOAD_SKILL_TOOL } from "./middleware-tool-names.js";
import type { ForkParent } from "./skill-fork.js";

// Forks are asked for in two ways the fork runner does not see: a user's `/name` (or a pin),
// which waits in its message for the model call, and a `load_skill` call, which needs the
// model and tools of the model call that made it.

/** A forked skill a user's `/name` (or the application's pin) asked for, waiting in its message for the model call. */
export type PendingFork = SkillFork & { operations: SkillOperation[]; task: string; answered?: true };

/**
 * Runs the forks that this turn's trailing user messages asked for and that have no answer yet,
 * in order. When they are all the turn asked, their answers are the answer; else the messages for
 * the model carry each answer in its message, and `answered` are those messages for the state.
 */
export async function answerUserForks(
  messages: readonly BaseMessage[],
  run: (fork: PendingFork) => Promise<{ text: string }>,
): Promise<{ answer?: AIMessage; messages: BaseMessage[]; answered: BaseMessage[] } | undefined> {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.type === "human") first--;
  const pending = messages.slice(first).flatMap((message) => {
    const fork = pendingFork(message);
    return fork ? [{ message, fork }] : [];
  });
  if (pending.length === 0) return undefined;
  const answers: string[] = [];
  for (const { fork } of pending) answers.push((await run(fork)).text);
  if (pending.length === messages.length - first) {
    return {
      answer: new AIMessage({
        content: answers.join("\n\n"),
        additional_kwargs: { skillset_forks: pending.map(({ fork }) => fork.skill) },
      }),
      messages: [],
      answered: [],
    };
  }
  const answered = new Map(
    pending.map(({ message, fork }, index) => [
      message,
      new HumanMessage({
        ...(message.id !== undefined ? { id: message.id } : {}),
        content: `${message.text}\n\n[skillset: /${fork.skill} ran in a forked agent. Its answer:]\n${answers[index]}`,
        additional_kwargs: { ...message.additional_kwargs, skillset_fork: { ...fork, answered: true } },
      }),
    ]),
  );
  return { messages: messages.map((message) => answered.get(message) ?? message), answered: [...answered.values()] };
}

function pendingFork(message: BaseMessage): PendingFork | undefined {
  const fork = message.additional_kwargs?.skillset_fork as PendingFork | undefined;
  return fork && !fork.answered ? fork : undefined;
}

/** The parent's model and tools of pending `load_skill` calls; see {@link createForkParents}. */
export type ForkParents = ReturnType<typeof createForkParents>;

/**
 * The parent's model and tools for each `load_skill` call its model made, kept until the call
 * runs: a tool sees neither. Bounded, for calls that never run (an interrupted step).
 */
export function createForkParents(limit = 256) {
  const byCall = new Map<string, ForkParent>();
  return {
    remember<R>(response: R, parent: ForkParent | undefined): R {
      if (!parent || !AIMessage.isInstance(response)) return response;
      for (const call of response.tool_calls ?? []) {
        if (call.name !== LOAD_SKILL_TOOL || !call.id) continue;
        if (byCall.size >= limit) byCall.delete(byCall.keys().next().value!);
        byCall.set(call.id, parent);
      }
      return response;
    },
    take(id: string): ForkParent | undefined {
      const parent = byCall.get(id);
      byCall.delete(id);
      return parent;
    },
  };
}
