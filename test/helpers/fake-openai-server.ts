// A local server that speaks OpenAI's chat-completions API (POST /v1/chat/completions), whole
// answers and server-sent events, with tool calls and usage, for the real `@langchain/openai`
// package to talk to through its base URL. What it answers is scripted by the test.
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

interface OpenAIMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

const openAIFormat: WireFormat = {
  path: "/v1/chat/completions",
  baseUrlPath: "/v1",

  normalise(body) {
    const messages: FakeMessage[] = ((body.messages ?? []) as OpenAIMessage[]).map((message) => ({
      role: message.role === "developer" ? "system" : (message.role as FakeMessage["role"]),
      text: contentText(message.content),
      ...(message.tool_calls
        ? {
            toolCalls: message.tool_calls.map((call) => ({
              name: call.function.name,
              args: JSON.parse(call.function.arguments) as unknown,
            })),
          }
        : {}),
    }));
    const tools = ((body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    return {
      model: String(body.model),
      stream: body.stream === true,
      system: messages
        .filter((message) => message.role === "system")
        .map((message) => message.text)
        .join("\n"),
      messages: messages.filter((message) => message.role !== "system"),
      tools,
    };
  },

  answer(answer, request, ids) {
    const usage = answer.usage ?? DEFAULT_USAGE;
    const toolCalls = (answer.toolCalls ?? []).map((call) => ({
      id: ids.call(call),
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    return {
      id: `chatcmpl-${ids.answer}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: request.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: answer.text ?? null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  },

  events(answer, request, ids) {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id: `chatcmpl-${ids.answer}`,
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: request.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const events: Array<{ data: unknown; piece?: boolean }> = [{ data: chunk({ role: "assistant", content: "" }) }];
    for (const piece of answer.text ? pieces(answer.text, answer.chunkSize ?? 4) : [])
      events.push({ data: chunk({ content: piece }), piece: true });
    (answer.toolCalls ?? []).forEach((call, index) => {
      const id = ids.call(call);
      events.push({
        data: chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }),
      });
      events.push({ data: chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(call.args) } }] }) });
    });
    events.push({ data: chunk({}, answer.toolCalls?.length ? "tool_calls" : "stop") });
    // Sent when the client asks with stream_options.include_usage, as @langchain/openai does.
    const usage = answer.usage ?? DEFAULT_USAGE;
    if ((request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
      events.push({
        data: {
          id: `chatcmpl-${ids.answer}`,
          object: "chat.completion.chunk",
          created: 1_700_000_000,
          model: request.model,
          choices: [],
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: usage.input + usage.output,
          },
        },
      });
    }
    return events;
  },

  end: "data: [DONE]\n\n",

  error(status, message, errorType) {
    return {
      error: {
        message,
        type:
          errorType ??
          (status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : "server_error"),
        param: null,
        code: status === 401 ? "invalid_api_key" : null,
      },
    };
  },
};

/**
 * Starts a fake OpenAI chat-completions server; give `url` to `@langchain/openai` as its base URL
 * (`configuration.baseURL`), or to `skillset chat --base-url`.
 */
export function startFakeOpenAIServer(script: FakeScript): Promise<FakeProviderServer> {
  return startFakeProvider(openAIFormat, script);
}
