import type { SkillFork, SkillRequest } from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { ForkOutcome, ForkParent } from "./skill-fork.js";
import type { SkillsStateView } from "./skills-state.js";

/** A forked skill's run, asked for from a tool call or a model call of this agent. */
export interface ForkedSkillCall {
  fork: SkillFork;
  task: string;
  /** The fork's own skill state: the skill loaded there. */
  operations: SkillOperation[];
  state: SkillsStateView;
  request: SkillRequest;
  runtime: unknown;
  parent: ForkParent | undefined;
}

/**
 * Runs a forked skill in its agent, one level deeper than this one, with this run's stream,
 * thread and abort signal. This thread's skills do not change.
 */
export function runForkedSkill(context: MiddlewareContext, call: ForkedSkillCall): Promise<ForkOutcome> {
  const { writer, signal } = call.runtime as { writer?: (chunk: unknown) => void; signal?: AbortSignal };
  const { fork, task, operations, parent, request } = call;
  return context.runFork!({
    fork,
    task,
    operations,
    depth: (call.state.skillsForkDepth ?? 0) + 1,
    parent,
    emit: request.emit,
    writer,
    threadId: request.sessionId,
    signal,
  });
}
