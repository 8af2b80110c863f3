import { AIMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from "langchain";
import type { SkillsLogEntry } from "../../core/skill-events.js";
import type { ToolActivity } from "./activity.js";
import type { ChatAgent } from "./chat-agent.js";

/** Tokens a turn used, as the provider reported them. */
export interface TokenUsage {
  input: number;
  output: number;
}

/** What a turn reports while it runs. */
export interface TurnHandlers {
  /** A piece of the answer's text, as the model streams it. */
  text?(piece: string): void;
  /** The model finished a message whose text was streamed. */
  textEnd?(): void;
  /** One of the skills middleware's events (`skill_loaded`, `script_ran`, …). */
  skillEvent?(entry: SkillsLogEntry): void;
  /** A tool call and its result. */
  tool?(activity: ToolActivity): void;
}

/** How a turn ended. */
export interface TurnResult {
  /** `stopped`: the signal aborted it; `failed`: an error (a provider's, say) ended it. */
  status: "answered" | "stopped" | "failed";
  error?: unknown;
  usage: TokenUsage;
  /** Answers the model gave (a call with tool calls counts). */
  modelCalls: number;
  /** The step limit ended the turn before the model was done. */
  stepLimitReached: boolean;
}

/** Options of {@link runTurn}. */
export interface TurnOptions {
  signal?: AbortSignal;
  /** LangGraph's bound on graph steps (a model call and a tool round are one step each). @default 200 */
  recursionLimit?: number;
}

// Stands in for the result of a tool call that a stop or an error interrupted, so the thread stays
// valid for the providers, which refuse a tool call without a result.
const INTERRUPTED_TOOL = "Error: not run: the user stopped the answer before this tool call finished.";

// How LangChain's modelCallLimitMiddleware words the message that ends a run at the limit.
const STEP_LIMIT_TEXT = "Model call limits exceeded";

/**
 * Sends one user message to the agent's thread and streams the answer through `handlers`. A
 * stop or an error ends the turn, not the thread: what the model had written of an unfinished
 * message is kept, and tool calls left without a result get one saying they did not run.
 */
export async function runTurn(
  agent: ChatAgent,
  threadId: string,
  message: string | BaseMessage,
  handlers: TurnHandlers,
  options: TurnOptions = {},
): Promise<TurnResult> {
  const config = { configurable: { thread_id: threadId } };
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const usage: TokenUsage = { input: 0, output: 0 };
  let stepLimitReached = false;
  let modelCalls = 0;
  // Text of the message the model is writing, until its step completes.
  let unfinished = "";
  try {
    const input = { messages: [typeof message === "string" ? { role: "user", content: message } : message] };
    const stream = await agent.stream(input, {
      ...config,
      streamMode: ["messages", "updates", "custom"],
      recursionLimit: options.recursionLimit ?? 200,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "messages") {
        const [piece, metadata] = chunk as [BaseMessage, { langgraph_node?: string }];
        if (metadata.langgraph_node !== "model_request" || !isStreamedPiece(piece)) continue;
        const text = piece.text;
        if (text) {
          unfinished += text;
          handlers.text?.(text);
        }
      } else if (mode === "custom") {
        const { type, ...entry } = chunk as { type?: string } & SkillsLogEntry;
        if (type === "skillset") handlers.skillEvent?.(entry as SkillsLogEntry);
      } else {
        for (const [node, update] of Object.entries(chunk as Record<string, unknown>)) {
          for (const written of messagesOf(update)) {
            if (AIMessage.isInstance(written)) {
              if (node !== "model_request") {
                // The limit middleware ends the run with a message of its own (and re-emits the state before that).
                stepLimitReached ||=
                  node.startsWith("ModelCallLimitMiddleware") && written.text.startsWith(STEP_LIMIT_TEXT);
                continue;
              }
              modelCalls++;
              usage.input += written.usage_metadata?.input_tokens ?? 0;
              usage.output += written.usage_metadata?.output_tokens ?? 0;
              // No piece of this message arrived (a model that does not stream, say): show it whole.
              if (!unfinished && written.text) handlers.text?.(written.text);
              if (unfinished || written.text) handlers.textEnd?.();
              unfinished = "";
              for (const call of written.tool_calls ?? [])
                if (call.id) calls.set(call.id, { name: call.name, args: call.args });
            } else if (ToolMessage.isInstance(written)) {
              const call = calls.get(written.tool_call_id);
              handlers.tool?.({
                name: written.name ?? call?.name ?? "tool",
                args: call?.args ?? {},
                result: written.text,
                error: written.status === "error",
              });
            }
          }
        }
      }
    }
    return { status: "answered", usage, modelCalls, stepLimitReached };
  } catch (error) {
    if (unfinished) handlers.textEnd?.();
    await settleThread(agent, config, unfinished);
    return { status: options.signal?.aborted ? "stopped" : "failed", error, usage, modelCalls, stepLimitReached };
  }
}

/** The state of a thread as the chat reads it: its messages and the skills middleware's keys. */
export interface ThreadValues {
  messages?: BaseMessage[];
  skillsLoaded?: string[];
  skillResources?: Record<string, unknown[]>;
}

/** The current state of a thread (empty for a new one). */
export async function threadValues(agent: ChatAgent, threadId: string): Promise<ThreadValues> {
  const state = (await agent.getState({ configurable: { thread_id: threadId } })) as { values?: ThreadValues };
  return state.values ?? {};
}

/**
 * Whether a `messages` stream item is a piece of the model's answer. Checked by its marker and
 * shape, not by class: with several copies of `@langchain/core` installed (a global install, say),
 * the provider's chunks are instances of another copy's `AIMessageChunk`, which
 * `AIMessageChunk.isInstance` (a prototype check) refuses.
 */
function isStreamedPiece(piece: unknown): piece is AIMessageChunk {
  return AIMessage.isInstance(piece) && typeof (piece as { concat?: unknown }).concat === "function";
}

/** The messages a node's update writes (an update, or the list of a tool node's updates). */
function messagesOf(update: unknown): unknown[] {
  if (Array.isArray(update)) return update.flatMap(messagesOf);
  const messages = (update as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? messages : [];
}

// After an interrupted turn: keep the text the user already saw, and answer tool calls that
// never got a result.
async function settleThread(
  agent: ChatAgent,
  config: { configurable: { thread_id: string } },
  unfinished: string,
): Promise<void> {
  const messages = (await threadValues(agent, config.configurable.thread_id)).messages ?? [];
  const answered = new Set(
    messages
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => (message as ToolMessage).tool_call_id),
  );
  const last = [...messages].reverse().find((message) => AIMessage.isInstance(message));
  const open =
    last && AIMessage.isInstance(last)
      ? (last.tool_calls ?? []).filter((call) => call.id && !answered.has(call.id))
      : [];
  const added: BaseMessage[] = open.map(
    (call) => new ToolMessage({ content: INTERRUPTED_TOOL, tool_call_id: call.id!, name: call.name, status: "error" }),
  );
  if (unfinished) added.push(new AIMessage(unfinished));
  if (added.length > 0) await agent.updateState(config, { messages: added });
}
