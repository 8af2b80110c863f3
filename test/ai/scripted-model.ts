// A scripted language model for the AI SDK's real loop, over the SDK's own `MockLanguageModelV3`
// (from `ai/test`, passed in so AI SDK 6 and 7 each use theirs), answering both generate and stream.

/** A tool call the model makes: `[name, input, id?]`. */
export type ScriptedToolCall = [name: string, input: Record<string, unknown>, id?: string];

/** One model response: tool calls (in one message, so they run in parallel), or text. */
export type ScriptedStep = ScriptedToolCall[] | string;

/** What the model received on one call. */
export interface ModelCall {
  /** The system prompt: the text of every system message, joined by a blank line. */
  system: string;
  /** The system messages as sent. */
  systemMessages: Array<{ role: "system"; content: string }>;
  /** Every other message, as sent to the provider. */
  messages: Array<{ role: string; content: unknown }>;
  /** Names of the tools offered. */
  tools: string[];
}

/** The constructor of `MockLanguageModelV3`, as both SDK versions export it. */
export type MockModelClass = new (options: {
  doGenerate: (options: CallOptions) => Promise<unknown>;
  doStream: (options: CallOptions) => Promise<unknown>;
}) => object;

interface CallOptions {
  prompt: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string }>;
}

type Part = { type: "text"; text: string } | { type: "tool-call"; toolCallId: string; toolName: string; input: string };

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

let nextId = 0;

/**
 * A model that answers with `steps` in order, then "done" forever; `calls` records what each call
 * received. Tool calls without an id get `call-<n>`.
 */
export function scriptedModel(Mock: MockModelClass, steps: ScriptedStep[]): { model: object; calls: ModelCall[] } {
  const calls: ModelCall[] = [];
  const queue = [...steps];
  const next = (options: CallOptions): { parts: Part[]; finishReason: string } => {
    const systemMessages = options.prompt.filter((message) => message.role === "system") as ModelCall["systemMessages"];
    calls.push({
      system: systemMessages.map((message) => message.content).join("\n\n"),
      systemMessages,
      messages: options.prompt.filter((message) => message.role !== "system"),
      tools: (options.tools ?? []).map((tool) => tool.name),
    });
    const step = queue.shift() ?? "done";
    if (typeof step === "string") return { parts: [{ type: "text", text: step }], finishReason: "stop" };
    return {
      parts: step.map(([toolName, input, id]): Part => ({
        type: "tool-call",
        toolCallId: id ?? `call-${++nextId}`,
        toolName,
        input: JSON.stringify(input),
      })),
      finishReason: "tool-calls",
    };
  };
  const model = new Mock({
    doGenerate: async (options) => {
      const { parts, finishReason } = next(options);
      return { content: parts, finishReason: { unified: finishReason, raw: finishReason }, usage: USAGE, warnings: [] };
    },
    doStream: async (options) => {
      const { parts, finishReason } = next(options);
      const chunks: unknown[] = [{ type: "stream-start", warnings: [] }];
      for (const part of parts) {
        if (part.type !== "text") chunks.push(part);
        // Text streams in two pieces, to show streaming is real.
        else
          chunks.push(
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: part.text.slice(0, 2) },
            { type: "text-delta", id: "t", delta: part.text.slice(2) },
            { type: "text-end", id: "t" },
          );
      }
      chunks.push({ type: "finish", finishReason: { unified: finishReason, raw: finishReason }, usage: USAGE });
      return {
        stream: new ReadableStream({
          start: (controller) => (chunks.forEach((chunk) => controller.enqueue(chunk)), controller.close()),
        }),
      };
    },
  });
  return { model, calls };
}

/** The text of a provider message's first text part (a user message or a tool result's output). */
export function textOf(message: { role: string; content: unknown } | undefined): string | undefined {
  if (!message) return undefined;
  if (typeof message.content === "string") return message.content;
  for (const part of message.content as Array<{ type: string; text?: string; output?: { value?: unknown } }>) {
    if (part.type === "text") return part.text;
    if (part.type === "tool-result") return String(part.output?.value);
  }
  return undefined;
}
