// A chat session over the real provider packages and a local fake provider, in the test's
// process: the model from createChatModel, the agent from createChatAgent (createAgent with the
// skills middleware), and the chat's output captured as the terminal would show it.
import { MemorySaver } from "@langchain/langgraph";
import { createCatalog } from "../../src/core/catalog/catalog.js";
import { createLocalSource } from "../../src/sources/local-source.js";
import { createChatAgent, type ChatAgent } from "../../src/cli/chat/chat-agent.js";
import { createChatModel, type ChatModel } from "../../src/cli/chat/chat-model.js";
import { createChatOutput } from "../../src/cli/chat/chat-output.js";
import { createChatSession, type ChatSession } from "../../src/cli/chat/chat-session.js";
import { startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer, FakeScript } from "../helpers/fake-provider-server.js";

export type Provider = "openai" | "anthropic";

const plain = {
  bold: (text: string) => text,
  dim: (text: string) => text,
  red: (text: string) => text,
  green: (text: string) => text,
  yellow: (text: string) => text,
};

/** A running session and what it printed. */
export interface SessionHarness {
  server: FakeProviderServer;
  model: ChatModel;
  agent: ChatAgent;
  session: ChatSession;
  /** What went to stdout (answers, command output). */
  stdout(): string;
  /** What went to stderr (activity, errors). */
  stderr(): string;
  /** Sends a line, as the chat loop does, with a fresh signal. */
  send(line: string, signal?: AbortSignal): ReturnType<ChatSession["handle"]>;
  close(): Promise<void>;
}

/**
 * Starts a fake `provider` with `script` and a session over the skills in `skillsRoot`; the
 * model talks to the fake server, or to `baseUrl` when given.
 */
export async function startSession(
  provider: Provider,
  script: FakeScript,
  skillsRoot: string,
  options: { timeoutMs?: number; threadId?: string; baseUrl?: string } = {},
): Promise<SessionHarness> {
  const server = provider === "openai" ? await startFakeOpenAIServer(script) : await startFakeAnthropicServer(script);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const model = await createChatModel({
    model: `${provider}:test-model`,
    baseUrl: options.baseUrl ?? server.url,
    timeoutMs,
    maxRetries: 0,
    env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" },
  });
  const sources = [createLocalSource({ path: skillsRoot, watch: false })];
  const catalog = createCatalog(sources);
  const agent = createChatAgent({ model: model.model, sources, allowScripts: false, checkpointer: new MemorySaver() });
  let stdout = "";
  let stderr = "";
  const output = createChatOutput(
    { write: (text: string) => (stdout += text) },
    { write: (text: string) => (stderr += text) },
    plain,
    false,
  );
  const session = createChatSession({
    agent,
    threadId: options.threadId ?? "thread-1",
    catalog,
    model,
    timeoutMs,
    output,
  });
  return {
    server,
    model,
    agent,
    session,
    stdout: () => stdout,
    stderr: () => stderr,
    send: (line, signal = new AbortController().signal) => session.handle(line, signal),
    close: async () => {
      catalog.close();
      await server.close();
    },
  };
}
