// One turn of the chat's agent against the real provider packages and a local server: streamed
// pieces in order, tokens, the step limit, and a stop (Ctrl-C) that ends the answer but leaves a
// thread the providers still accept.
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatAgent, type ChatAgent } from "../../src/cli/chat/chat-agent.js";
import { createChatModel } from "../../src/cli/chat/chat-model.js";
import { runTurn, threadValues } from "../../src/cli/chat/run-turn.js";
import { createLocalSource } from "../../src/sources/local-source.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { inOrder, type FakeProviderServer } from "../helpers/fake-provider-server.js";
import { tempTree } from "../helpers/skill-tree.js";
import { startSession, type SessionHarness } from "./session-harness.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function skills(): string {
  const tree = tempTree("skillset-turn-");
  cleanups.push(() => tree.cleanup());
  tree.skill("notes", "notes", "Keeps notes.");
  tree.write("notes/references/format.md", "# Format\n");
  return tree.root;
}

async function session(
  provider: "openai" | "anthropic",
  replies: Parameters<typeof inOrder>[0],
): Promise<SessionHarness> {
  const harness = await startSession(provider, inOrder(replies), skills());
  cleanups.push(() => harness.close());
  return harness;
}

describe.each(["openai", "anthropic"] as const)("a turn, %s", (provider) => {
  it("streams the answer piece by piece, reports skill activity and counts the tokens of every model call", async () => {
    const harness = await session(provider, [
      {
        text: "Let me look.",
        toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }],
        usage: { input: 120, output: 15 },
      },
      {
        toolCalls: [{ name: "read_skill_resource", args: { skill_name: "notes", path: "references/format.md" } }],
        usage: { input: 240, output: 9 },
      },
      { text: "Notes use a heading.", chunkSize: 5, usage: { input: 300, output: 7 } },
    ]);
    const pieces: string[] = [];
    const events: string[] = [];
    const result = await runTurn(harness.agent, "t-stream", "how are notes written?", {
      text: (piece) => pieces.push(piece),
      textEnd: () => pieces.push("<end>"),
      skillEvent: (entry) => events.push(`${entry.event} ${String(entry.skill)}`),
      tool: (activity) => events.push(`${activity.name} ${JSON.stringify(activity.args)} error=${activity.error}`),
    });
    expect(result).toEqual({
      status: "answered",
      usage: { input: 660, output: 31 },
      modelCalls: 3,
      stepLimitReached: false,
    });
    expect(pieces).toEqual(["Let ", "me l", "ook.", "<end>", "Notes", " use ", "a hea", "ding.", "<end>"]);
    expect(events).toEqual([
      "skill_loaded notes",
      'load_skill {"skill_name":"notes"} error=false',
      'read_skill_resource {"skill_name":"notes","path":"references/format.md"} error=false',
    ]);
  });

  it("a stop while the answer streams: the stream is closed, what was shown is kept, and the next turn goes on", async () => {
    const full = "One, two, three, four, five, six, seven, eight, nine, ten.";
    const harness = await session(provider, [{ text: full, chunkSize: 5, chunkDelayMs: 40 }, { text: "Next." }]);
    const stop = new AbortController();
    let shown = "";
    const result = await runTurn(
      harness.agent,
      "t-stop",
      "count",
      {
        text: (piece) => {
          shown += piece;
          if (shown.length >= 10) stop.abort();
        },
      },
      { signal: stop.signal },
    );
    expect(result.status).toBe("stopped");
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(full.startsWith(shown) && shown.length < full.length).toBe(true);
    // The server saw the client go: no tokens are spent on an answer nobody reads.
    await expect.poll(() => harness.server.abandoned).toBe(1);
    const after = await threadValues(harness.agent, "t-stop");
    expect(after.messages!.map((message) => `${message.type}: ${message.text}`)).toEqual([
      "human: count",
      `ai: ${shown}`,
    ]);

    const next = await runTurn(harness.agent, "t-stop", "go on", {});
    expect(next.status).toBe("answered");
    expect(harness.server.requests[1]!.messages.map((message) => `${message.role}: ${message.text}`)).toEqual([
      "user: count",
      `assistant: ${shown}`,
      "user: go on",
    ]);
  });

  it("ends a turn at the step limit and says so", async () => {
    const tree = tempTree("skillset-turn-limit-");
    cleanups.push(() => tree.cleanup());
    tree.skill("a");
    tree.skill("b");
    const server = await fakeServer(provider, [
      { toolCalls: [{ name: "load_skill", args: { skill_name: "a" } }] },
      { toolCalls: [{ name: "load_skill", args: { skill_name: "b" } }] },
    ]);
    const model = await createChatModel({
      model: `${provider}:test-model`,
      baseUrl: server.url,
      timeoutMs: 10_000,
      maxRetries: 0,
      env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" },
    });
    const agent = createChatAgent({
      model: model.model,
      sources: [createLocalSource({ path: tree.root, watch: false })],
      allowScripts: false,
      checkpointer: new MemorySaver(),
      maxModelCalls: 1,
    });
    const loaded: string[] = [];
    const result = await runTurn(agent, "t-limit", "go", { skillEvent: (entry) => loaded.push(String(entry.skill)) });
    expect(result).toMatchObject({ status: "answered", modelCalls: 1, stepLimitReached: true });
    expect(loaded).toEqual(["a"]);
    expect(server.requests).toHaveLength(1);
  });
});

it("a model that does not stream: its whole answer is shown once, after the message it writes, and the turn goes on", async () => {
  const server = await fakeServer("openai", [
    { text: "Let me look.", toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
    { text: "Notes use a heading." },
  ]);
  const model = new ChatOpenAI({
    model: "test-model",
    apiKey: "k",
    configuration: { baseURL: server.url },
    maxRetries: 0,
    disableStreaming: true,
  });
  const agent = createChatAgent({
    model,
    sources: [createLocalSource({ path: skills(), watch: false })],
    allowScripts: false,
    checkpointer: new MemorySaver(),
  });
  const pieces: string[] = [];
  const result = await runTurn(agent, "t-whole", "how are notes written?", {
    text: (piece) => pieces.push(piece),
    textEnd: () => pieces.push("<end>"),
  });
  expect(result).toMatchObject({ status: "answered", modelCalls: 2 });
  expect(server.requests.map((request) => request.stream)).toEqual([false, false]);
  expect(pieces).toEqual(["Let me look.", "<end>", "Notes use a heading.", "<end>"]);
});

it("a stop while a tool runs: the call gets a result saying it did not run, so the provider accepts the thread", async () => {
  let release: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = tool(
    async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return "finished";
    },
    { name: "slow_tool", description: "Takes a while.", schema: z.object({}) },
  );
  const server = await fakeServer("openai", [
    { toolCalls: [{ name: "slow_tool", args: {}, id: "call_slow" }] },
    { text: "Fine." },
  ]);
  const model = await createChatModel({
    model: "openai:test-model",
    baseUrl: server.url,
    timeoutMs: 10_000,
    maxRetries: 0,
    env: { OPENAI_API_KEY: "k" },
  });
  const agent = createAgent({
    model: model.model,
    tools: [slow],
    checkpointer: new MemorySaver(),
  }) as unknown as ChatAgent;
  const stop = new AbortController();
  void started.then(() => stop.abort());
  expect((await runTurn(agent, "t-tool", "run it", {}, { signal: stop.signal })).status).toBe("stopped");

  expect((await runTurn(agent, "t-tool", "and now?", {})).status).toBe("answered");
  const sent = server.requests[1]!.messages.map((message) => `${message.role}: ${message.text}`);
  expect(sent).toEqual([
    "user: run it",
    "assistant: ",
    "tool: Error: not run: the user stopped the answer before this tool call finished.",
    "user: and now?",
  ]);
  await new Promise((resolve) => setTimeout(resolve, 350)); // let the abandoned tool finish before the test ends
});

async function fakeServer(
  provider: "openai" | "anthropic",
  replies: Parameters<typeof inOrder>[0],
): Promise<FakeProviderServer> {
  const { startFakeAnthropicServer } = await import("../helpers/fake-anthropic-server.js");
  const server =
    provider === "openai"
      ? await startFakeOpenAIServer(inOrder(replies))
      : await startFakeAnthropicServer(inOrder(replies));
  cleanups.push(() => server.close());
  return server;
}
