// OpenAI's embeddings API (POST /v1/embeddings) on an ephemeral port of 127.0.0.1, for the real
// @langchain/openai OpenAIEmbeddings to talk to. Vectors are a deterministic bag of words (each
// word of four letters or more, cut to its first five, hashed into one of 64 dimensions), so texts
// that share words are close; every request is recorded, so tests can count what was embedded.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running fake embeddings server. */
export interface FakeEmbeddingsServer {
  /** The base URL, `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL or `configuration.baseURL`. */
  url: string;
  /** The inputs of every request, in order. */
  requests: Array<{ model: string; input: string[] }>;
  /** Fail every request from now on with this HTTP status (0: answer again). */
  failWith: number;
  close(): Promise<void>;
}

export const FAKE_DIMENSIONS = 64;

/** The vector the server gives `text`. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]{4,}/g) ?? []) {
    let hash = 7;
    for (const char of word.slice(0, 5)) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
    vector[hash % FAKE_DIMENSIONS]! += 1;
  }
  return vector;
}

export async function startFakeEmbeddingsServer(): Promise<FakeEmbeddingsServer> {
  const state = { requests: [] as FakeEmbeddingsServer["requests"], failWith: 0 };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/embeddings") {
        response
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `No route ${request.url}`, type: "invalid_request_error" } }));
        return;
      }
      const {
        model,
        input,
        encoding_format: encoding,
      } = JSON.parse(body) as { model: string; input: string | string[]; encoding_format?: string };
      const inputs = typeof input === "string" ? [input] : input;
      state.requests.push({ model, input: inputs });
      if (state.failWith !== 0) {
        response
          .writeHead(state.failWith, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "The embeddings service is down", type: "server_error" } }));
        return;
      }
      // The openai client asks for base64 (float32, little-endian) unless told otherwise, as the real API allows.
      const encode = (vector: number[]) =>
        encoding === "base64" ? Buffer.from(Float32Array.from(vector).buffer).toString("base64") : vector;
      const data = inputs.map((text, index) => ({
        object: "embedding",
        index,
        embedding: encode(fakeEmbedding(text)),
      }));
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          object: "list",
          data,
          model,
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    get failWith() {
      return state.failWith;
    },
    set failWith(value: number) {
      state.failWith = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
