// Setting up the model of `--model`, `--base-url`, `--timeout` and `--max-retries` through
// LangChain's initChatModel, checked against what the local servers receive.
import { HumanMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { createChatModel, modelOptionsFrom } from "../../src/cli/chat/chat-model.js";
import { startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { inOrder, type FakeProviderServer } from "../helpers/fake-provider-server.js";

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function openai(replies: Parameters<typeof inOrder>[0]) {
  const server = await startFakeOpenAIServer(inOrder(replies));
  servers.push(server);
  return server;
}

describe("createChatModel", () => {
  it("sends the key from OPENAI_API_KEY, and the model name without its provider", async () => {
    const server = await openai([{ text: "hi" }]);
    const { model, provider, endpoint, keyVariable } = await createChatModel({
      model: "openai:gpt-test",
      baseUrl: server.url,
      timeoutMs: 5_000,
      maxRetries: 0,
      env: { OPENAI_API_KEY: "sk-from-env" },
    });
    expect({ provider, endpoint, keyVariable }).toEqual({
      provider: "openai",
      endpoint: server.url,
      keyVariable: "OPENAI_API_KEY",
    });
    expect((await model.invoke([new HumanMessage("hello")])).text).toBe("hi");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-env");
    expect(server.requests[0]!.model).toBe("gpt-test");
  });

  it("reaches a server that needs no key (Ollama, vLLM) with --base-url and no OPENAI_API_KEY", async () => {
    const server = await openai([{ text: "local" }]);
    const { model } = await createChatModel({
      model: "openai:llama3",
      baseUrl: server.url,
      timeoutMs: 5_000,
      maxRetries: 0,
      env: {},
    });
    expect((await model.invoke([new HumanMessage("hello")])).text).toBe("local");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer not-needed");
  });

  it("sends ANTHROPIC_API_KEY as x-api-key to Anthropic's API", async () => {
    const server = await startFakeAnthropicServer(inOrder([{ text: "hello from claude" }]));
    servers.push(server);
    const { model } = await createChatModel({
      model: "anthropic:claude-test",
      baseUrl: server.url,
      timeoutMs: 5_000,
      maxRetries: 0,
      env: { ANTHROPIC_API_KEY: "sk-ant-env" },
    });
    expect((await model.invoke([new HumanMessage("hello")])).text).toBe("hello from claude");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-env");
  });

  it("retries a failed request --max-retries times", async () => {
    const server = await openai([{ status: 500, message: "boom" }, { text: "second try" }]);
    const { model } = await createChatModel({
      model: "openai:gpt-test",
      baseUrl: server.url,
      timeoutMs: 5_000,
      maxRetries: 1,
      env: { OPENAI_API_KEY: "k" },
    });
    expect((await model.invoke([new HumanMessage("hello")])).text).toBe("second try");
    expect(server.requests).toHaveLength(2);
  });
});

describe("modelOptionsFrom", () => {
  it("has defaults of 120 s and 2 retries, and reads seconds with decimals", () => {
    expect(modelOptionsFrom({ model: "openai:m" })).toEqual({ model: "openai:m", timeoutMs: 120_000, maxRetries: 2 });
    expect(modelOptionsFrom({ model: "openai:m", timeout: "0.5", maxRetries: "0", baseUrl: "http://x/v1" })).toEqual({
      model: "openai:m",
      timeoutMs: 500,
      maxRetries: 0,
      baseUrl: "http://x/v1",
    });
  });

  it.each([
    [{ timeout: "soon" }, "--timeout must be a number of seconds greater than 0 (got 'soon')"],
    [{ timeout: "-1" }, "--timeout must be a number of seconds greater than 0 (got '-1')"],
    [{ maxRetries: "1.5" }, "--max-retries must be a whole number, 0 or more (got '1.5')"],
  ])("refuses %j", (options, message) => {
    expect(() => modelOptionsFrom({ model: "openai:m", ...options })).toThrow(message);
  });
});
