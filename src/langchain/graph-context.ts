import { getConfig, getCurrentTaskInput } from "@langchain/langgraph";

/**
 * The state a deepagents backend factory expects: a hook sees only its own middleware's keys,
 * so `files` (where deepagents' StateBackend keeps files) is read from the running graph when
 * the hook's state lacks it, the way deepagents' own StateBackend reads it.
 */
export function stateForBackend(state: object): Record<string, unknown> {
  const view: Record<string, unknown> = { ...state };
  if (!("files" in view)) {
    Object.defineProperty(view, "files", { enumerable: true, get: () => readChannel("files") ?? {} });
  }
  return view;
}

/**
 * The messages the model will really get when deepagents' summarization (which keeps the full
 * history in state and records a `_summarizationEvent`) has cut the conversation.
 */
export function messagesAfterSummarization(messages: readonly unknown[]): readonly unknown[] {
  let event: { cutoffIndex?: unknown; summaryMessage?: unknown } | undefined;
  try {
    event = (getCurrentTaskInput() as { _summarizationEvent?: typeof event })._summarizationEvent;
  } catch {
    return messages;
  }
  if (!event || typeof event.cutoffIndex !== "number") return messages;
  const full = (getCurrentTaskInput() as { messages?: unknown[] }).messages ?? [];
  return [event.summaryMessage, ...full.slice(event.cutoffIndex)].filter((message) => message !== undefined);
}

function readChannel(name: string): unknown {
  try {
    const read = getConfig()?.configurable?.__pregel_read as ((channel: string, fresh: boolean) => unknown) | undefined;
    return read?.(name, true);
  } catch {
    return undefined;
  }
}
