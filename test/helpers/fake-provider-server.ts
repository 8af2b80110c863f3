// The HTTP side shared by the fake OpenAI and Anthropic servers: listen on an ephemeral port of
// 127.0.0.1, record every request, ask the test's script what to answer, and write it as JSON,
// as server-sent events (optionally slowly, chunk by chunk), as an HTTP error, as garbage, or
// not at all. Each API's own server turns a scripted reply into that API's wire format.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A tool call the scripted model makes. */
export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
  /** The call's id; a predictable one (`call_<n>`) when not given. */
  id?: string;
}

/** Token counts the server reports for one answer. */
export interface FakeUsage {
  input: number;
  output: number;
}

/** What the scripted model answers: text, tool calls or both. */
export interface FakeAnswer {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** @default { input: 10, output: 5 } */
  usage?: FakeUsage;
  /** When streaming: the text is sent in pieces of this many characters. @default 4 */
  chunkSize?: number;
  /** When streaming: a pause before each piece, to watch an answer arrive or stop it. @default 0 */
  chunkDelayMs?: number;
}

/** Everything the script may answer with. */
export type FakeReply =
  | FakeAnswer
  /** An HTTP error with the API's error body. */
  | { status: number; message: string; errorType?: string; headers?: Record<string, string> }
  /** Accept the request and never answer (a timeout). */
  | { hang: true }
  /** A body that is not the API's format at all. */
  | { raw: string; contentType?: string };

/** One message of a request, as plain text, in the order the API got them. */
export interface FakeMessage {
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  /** For assistant messages, the tools it called. */
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/** One request the server received, normalised across APIs. */
export interface FakeRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  /** The system prompt, when there is one. */
  system: string;
  messages: FakeMessage[];
  /** The names of the tools offered. */
  tools: string[];
  /** The text of the last user message. */
  lastUserText: string;
}

/** Answers one request; may be async. */
export type FakeScript = (request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>;

/** A script that answers requests in order with `replies`, then with `fallback` (a plain "done"). */
export function inOrder(replies: FakeReply[], fallback: FakeReply = { text: "done" }): FakeScript {
  return (_request, index) => replies[index] ?? fallback;
}

/** A running fake provider. */
export interface FakeProviderServer {
  /** The base URL to give the provider package. */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** How many streamed answers the client stopped reading before the end. */
  readonly abandoned: number;
  /** Stops the server and drops any connection still open (a hanging request, say). */
  close(): Promise<void>;
}

/** How one API reads requests and writes answers. */
export interface WireFormat {
  /** The path the API answers on, e.g. `/v1/chat/completions`. */
  path: string;
  /** What follows the origin in the base URL the client is given (`/v1` for OpenAI, nothing for Anthropic). */
  baseUrlPath: string;
  normalise(body: Record<string, unknown>): Omit<FakeRequest, "path" | "headers" | "body" | "lastUserText">;
  /** The JSON body of a whole answer. */
  answer(answer: FakeAnswer, request: FakeRequest, ids: AnswerIds): unknown;
  /** The server-sent events of an answer: `[event name or undefined, data]`, text pieces marked. */
  events(
    answer: FakeAnswer,
    request: FakeRequest,
    ids: AnswerIds,
  ): Array<{ event?: string; data: unknown; piece?: boolean }>;
  /** The closing line of a stream, if the API has one (`data: [DONE]`). */
  end?: string;
  /** The JSON body of an HTTP error. */
  error(status: number, message: string, errorType: string | undefined): unknown;
}

/** Predictable ids, numbered across the server's life: each answer's own, and tool calls' without one. */
export interface AnswerIds {
  /** The id of the answer being written (unique, as the APIs' are: LangChain merges messages by id). */
  answer: string;
  call(call: FakeToolCall): string;
}

/** Starts a fake provider speaking `format` on an ephemeral port of 127.0.0.1. */
export async function startFakeProvider(format: WireFormat, script: FakeScript): Promise<FakeProviderServer> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  let abandoned = 0;
  let callCount = 0;

  const server = createServer((incoming, response) => {
    void handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(`fake provider failed: ${error instanceof Error ? error.stack : String(error)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(incoming);
    const path = new URL(incoming.url ?? "/", "http://localhost").pathname;
    if (incoming.method !== "POST" || path !== format.path) {
      response
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify(format.error(404, `No route for ${incoming.method} ${path}`, "not_found_error")));
      return;
    }
    const body = JSON.parse(raw) as Record<string, unknown>;
    const normal = format.normalise(body);
    const lastUser = [...normal.messages].reverse().find((message) => message.role === "user");
    const request: FakeRequest = {
      path,
      headers: incoming.headers,
      body,
      ...normal,
      lastUserText: lastUser?.text ?? "",
    };
    requests.push(request);
    const reply = await script(request, requests.length - 1);
    const ids: AnswerIds = { answer: `fake-${requests.length}`, call: (call) => call.id ?? `call_${++callCount}` };

    if ("hang" in reply) return;
    if ("raw" in reply) {
      response.writeHead(200, { "content-type": reply.contentType ?? "application/json" }).end(reply.raw);
      return;
    }
    if ("status" in reply) {
      response
        .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
        .end(JSON.stringify(format.error(reply.status, reply.message, reply.errorType)));
      return;
    }
    if (!request.stream) {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(format.answer(reply, request, ids)));
      return;
    }
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    let gone = false;
    response.on("close", () => {
      if (response.writableFinished) return;
      gone = true;
      abandoned++;
    });
    for (const { event, data, piece } of format.events(reply, request, ids)) {
      if (piece && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      if (gone) return;
      response.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
    }
    response.end(format.end ?? "");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${format.baseUrlPath}`,
    requests,
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Splits `text` into pieces of `size` characters (at least one piece, even for ""). */
export function pieces(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts;
}

/** The text of a message content that is a string or a list of `{ type: "text", text }` blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: unknown; content?: unknown }) => {
      if (block?.type === "text" && typeof block.text === "string") return block.text;
      if (block?.type === "tool_result") return contentText(block.content);
      return "";
    })
    .join("");
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    incoming.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
