// A local server that speaks Anthropic's messages API (POST /v1/messages), whole answers and
// server-sent events, with tool use and usage, for the real `@langchain/anthropic` package to
// talk to through its base URL. What it answers is scripted by the test.
import {
  contentText,
  pieces,
  startFakeProvider,
  type FakeMessage,
  type FakeProviderServer,
  type FakeScript,
  type WireFormat,
} from "./fake-provider-server.js";

const DEFAULT_USAGE = { input: 10, output: 5 };

type Block = { type: string; text?: string; name?: string; input?: unknown; content?: unknown };

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  529: "overloaded_error",
};

function normaliseMessage(message: { role: string; content: string | Block[] }): FakeMessage {
  if (typeof message.content === "string") return { role: message.role as FakeMessage["role"], text: message.content };
  const blocks = message.content;
  if (message.role === "user" && blocks.length > 0 && blocks.every((block) => block.type === "tool_result"))
    return { role: "tool", text: contentText(blocks) };
  const toolCalls = blocks
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ name: block.name!, args: block.input }));
  return {
    role: message.role as FakeMessage["role"],
    text: contentText(blocks),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
}

const anthropicFormat: WireFormat = {
  path: "/v1/messages",
  baseUrlPath: "",

  normalise(body) {
    const system = typeof body.system === "string" ? body.system : contentText(body.system);
    return {
      model: String(body.model),
      stream: body.stream === true,
      system,
      messages: ((body.messages ?? []) as Array<{ role: string; content: string | Block[] }>).map(normaliseMessage),
      tools: ((body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name),
    };
  },

  answer(answer, request, ids) {
    const usage = answer.usage ?? DEFAULT_USAGE;
    const content = [
      ...(answer.text ? [{ type: "text", text: answer.text }] : []),
      ...(answer.toolCalls ?? []).map((call) => ({
        type: "tool_use",
        id: ids.call(call),
        name: call.name,
        input: call.args,
      })),
    ];
    return {
      id: `msg_${ids.answer}`,
      type: "message",
      role: "assistant",
      model: request.model,
      content,
      stop_reason: answer.toolCalls?.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  },

  events(answer, request, ids) {
    const usage = answer.usage ?? DEFAULT_USAGE;
    const events: Array<{ event: string; data: unknown; piece?: boolean }> = [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: `msg_${ids.answer}`,
            type: "message",
            role: "assistant",
            model: request.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input, output_tokens: 0 },
          },
        },
      },
    ];
    let index = 0;
    if (answer.text) {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      });
      for (const piece of pieces(answer.text, answer.chunkSize ?? 4)) {
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
          piece: true,
        });
      }
      events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
      index++;
    }
    for (const call of answer.toolCalls ?? []) {
      events.push({
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: ids.call(call), name: call.name, input: {} },
        },
      });
      events.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(call.args) },
        },
      });
      events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
      index++;
    }
    events.push({
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: answer.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
    });
    events.push({ event: "message_stop", data: { type: "message_stop" } });
    return events;
  },

  error(status, message, errorType) {
    return { type: "error", error: { type: errorType ?? ERROR_TYPES[status] ?? "api_error", message } };
  },
};

/**
 * Starts a fake Anthropic messages server; give `url` to `@langchain/anthropic` as its API URL
 * (`anthropicApiUrl`), or to `skillset chat --base-url`.
 */
export function startFakeAnthropicServer(script: FakeScript): Promise<FakeProviderServer> {
  return startFakeProvider(anthropicFormat, script);
}
