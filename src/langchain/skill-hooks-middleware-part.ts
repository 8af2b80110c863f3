import { Command, isCommand } from "@langchain/langgraph";
import { HumanMessage, ToolMessage, type BaseMessage } from "langchain";
import type { SkillEngine, SkillRequest } from "../core/engine/skill-engine.js";
import { matchingHooks, runSkillHooks, type SkillHookRun } from "../core/tools/skill-hooks.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillsLogger } from "../core/skill-events.js";
import type { ScriptExecutor } from "../exec/script-executor.js";
import type { SkillsStateView } from "./skills-state.js";

/** What the hooks part of the middleware needs. */
export interface SkillHookParts {
  engine: SkillEngine;
  requestFor(state: SkillsStateView, runtime: object): SkillRequest;
  executor: ScriptExecutor;
  defaultAllowedCommands: readonly string[];
  logger: SkillsLogger | undefined;
}

// A Stop hook that blocks makes the agent go on; after this many blocks in a row it may finish.
const MAX_STOP_BLOCKS = 3;
const STOP_MARK = "skillset_stop_hook";

interface ToolCallRequest {
  toolCall: { name: string; args: unknown; id?: string };
  state: unknown;
  runtime: unknown;
}

/**
 * The loaded skills' `hooks:` in the agent loop: `PreToolUse` and `PostToolUse` around each tool
 * call, `Stop` when the model answers without tool calls. Which `once` handlers ran is thread
 * state (`_skillHooksRan`), written next to the call's result, so it survives processes and never
 * mixes threads; of the parallel calls of one step, the first that matches runs such a handler.
 */
export function createSkillHookParts(parts: SkillHookParts) {
  return {
    /** Wraps the middleware's own `wrapToolCall` (or the plain handler) with the tool hooks. */
    wrapToolCall<W>(inner: W): W {
      const wrapped = async (request: ToolCallRequest, handler: ToolCallHandler): Promise<unknown> =>
        withToolHooks(parts, request, inner ? (value) => (inner as typeof wrapped)(value, handler) : handler);
      return wrapped as W;
    },

    /** `Stop` hooks when the model answers without tool calls; a block sends the agent back to the model with the reason. */
    afterModel: {
      canJumpTo: ["model" as const],
      hook: (state: SkillsStateView, runtime: object) => stopHooks(parts, state, runtime),
    },
  };
}

type ToolCallHandler = (request: ToolCallRequest) => Promise<unknown>;

function hookRun(parts: SkillHookParts, request: SkillRequest, ran: Set<string>): SkillHookRun {
  return {
    executor: parts.executor,
    defaultAllowedCommands: parts.defaultAllowedCommands,
    logger: parts.logger,
    ...(request.emit ? { emit: request.emit } : {}),
    ran,
  };
}

function hookInputBase(request: SkillRequest) {
  return request.sessionId === undefined ? {} : { session_id: request.sessionId };
}

// `PreToolUse` before the call (a block answers it), `PostToolUse` after (its notes follow the result).
async function withToolHooks(parts: SkillHookParts, request: ToolCallRequest, next: ToolCallHandler): Promise<unknown> {
  const { name, args, id = "" } = request.toolCall;
  const state = request.state as SkillsStateView;
  const skills = parts.requestFor(state, request.runtime as object);
  const loaded = await parts.engine.loadedSkills(skills);
  const pre = matchingHooks(loaded, "PreToolUse", name);
  const post = matchingHooks(loaded, "PostToolUse", name);
  if (pre.length === 0 && post.length === 0) return next(request);
  const input = { ...hookInputBase(skills), tool_name: name, tool_input: args, tool_use_id: id };
  // `once` handlers an earlier call of the same step runs count as run here.
  const before = new Set([
    ...(state._skillHooksRan ?? []),
    ...onceHooksOfEarlierCalls(loaded, state.messages ?? [], id),
  ]);
  const ran = new Set(before);
  const withRan = (response: unknown) =>
    recordRan(
      response,
      [...ran].filter((key) => !before.has(key)),
    );
  if (pre.length > 0) {
    const outcome = await runSkillHooks(pre, loaded, input, hookRun(parts, skills, ran));
    if (outcome.action === "block")
      return withRan(
        new ToolMessage({
          content: `Error: A PreToolUse hook of skill '${outcome.skill}' blocked this call: ${outcome.reason}`,
          tool_call_id: id,
          name,
          status: "error",
        }),
      );
  }
  const response = await next(request);
  if (post.length === 0 || !ToolMessage.isInstance(response)) return withRan(response);
  const outcome = await runSkillHooks(
    post,
    loaded,
    { ...input, tool_response: response.content },
    hookRun(parts, skills, ran),
  );
  const notes =
    outcome.action === "block"
      ? [`[PostToolUse hook of skill '${outcome.skill}': ${outcome.reason}]`]
      : outcome.notes.map((note) => `[PostToolUse hook: ${note}]`);
  if (notes.length === 0) return withRan(response);
  return withRan(
    new ToolMessage({
      ...response,
      content: `${response.text}\n\n${notes.join("\n")}`,
      tool_call_id: response.tool_call_id,
    }),
  );
}

// The loaded skills' `Stop` hooks, when the model's last message answers without tool calls.
async function stopHooks(parts: SkillHookParts, state: SkillsStateView, runtime: object) {
  const messages = (state.messages ?? []) as BaseMessage[];
  const last = messages.at(-1) as (BaseMessage & { tool_calls?: unknown[] }) | undefined;
  if (!last || last.type !== "ai" || (last.tool_calls?.length ?? 0) > 0) return undefined;
  const skills = parts.requestFor(state, runtime);
  const loaded = await parts.engine.loadedSkills(skills);
  const hooks = matchingHooks(loaded, "Stop");
  if (hooks.length === 0) return undefined;
  const blocks = recentStopBlocks(messages);
  if (blocks >= MAX_STOP_BLOCKS) return undefined;
  const ranBefore = state._skillHooksRan ?? [];
  const ran = new Set(ranBefore);
  const outcome = await runSkillHooks(
    hooks,
    loaded,
    { ...hookInputBase(skills), stop_hook_active: blocks > 0, last_assistant_message: last.text },
    hookRun(parts, skills, ran),
  );
  const added = [...ran].filter((key) => !ranBefore.includes(key));
  const recorded = added.length > 0 ? { _skillHooksRan: added } : {};
  if (outcome.action !== "block") return added.length > 0 ? recorded : undefined;
  const message = new HumanMessage({
    content: `[skillset: a Stop hook of skill '${outcome.skill}' asks you to go on before finishing: ${outcome.reason}]`,
    additional_kwargs: { [STOP_MARK]: outcome.skill },
  });
  return { messages: [message], jumpTo: "model" as const, ...recorded };
}

// The `once` handlers that tool calls before `callId` in its AI message match: all calls of a
// step see the same state, so the first matching call runs such a handler and the others skip it.
function onceHooksOfEarlierCalls(
  loaded: readonly SkillMetadata[],
  messages: readonly unknown[],
  callId: string,
): string[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const calls = (messages[index] as { tool_calls?: Array<{ id?: string; name: string }> }).tool_calls;
    const position = calls?.findIndex((call) => call.id === callId) ?? -1;
    if (position === -1) continue;
    return calls!
      .slice(0, position)
      .flatMap((call) =>
        [...matchingHooks(loaded, "PreToolUse", call.name), ...matchingHooks(loaded, "PostToolUse", call.name)]
          .filter((hook) => hook.once)
          .map((hook) => hook.key),
      );
  }
  return [];
}

// A tool call's result with the `once` handlers it ran added to the thread's state.
function recordRan(response: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0) return response;
  if (ToolMessage.isInstance(response)) return new Command({ update: { messages: [response], _skillHooksRan: keys } });
  if (isCommand(response) && isPlainUpdate(response.update))
    return new Command({ ...response, update: { ...response.update, _skillHooksRan: keys } });
  return response;
}

function isPlainUpdate(update: unknown): update is Record<string, unknown> {
  return typeof update === "object" && update !== null && !Array.isArray(update);
}

// How many of the user messages since the last real one are Stop hooks' blocks.
function recentStopBlocks(messages: readonly BaseMessage[]): number {
  let count = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.type !== "human") continue;
    if (!message.additional_kwargs?.[STOP_MARK]) break;
    count++;
  }
  return count;
}
