// A provider error ends the turn with one line on stderr and the conversation goes on: for each
// kind of failure, against the real @langchain/openai and @langchain/anthropic packages talking
// to a local server that fails the first request and answers the next.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeReply } from "../helpers/fake-provider-server.js";
import { tempTree } from "../helpers/skill-tree.js";
import { startSession, type Provider, type SessionHarness } from "./session-harness.js";

const open: SessionHarness[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  for (const tree of trees.splice(0)) tree.cleanup();
});

function skills(): string {
  const tree = tempTree("skillset-chat-errors-");
  trees.push(tree);
  tree.skill("notes");
  return tree.root;
}

/** A session whose server fails the first request with `failure`, then answers "Back again." */
async function failingOnce(provider: Provider, failure: FakeReply, timeoutMs?: number): Promise<SessionHarness> {
  const harness = await startSession(
    provider,
    (_request, index) => (index === 0 ? failure : { text: "Back again." }),
    skills(),
    timeoutMs ? { timeoutMs } : {},
  );
  open.push(harness);
  return harness;
}

const cases: Array<{ name: string; failure: FakeReply; timeoutMs?: number; line: Record<Provider, string> }> = [
  {
    name: "a refused key (401)",
    failure: { status: 401, message: "Incorrect API key provided: sk-test." },
    line: {
      openai:
        "skillset: The provider refused the request (401): Incorrect API key provided: sk-test. Check OPENAI_API_KEY.\n",
      anthropic:
        "skillset: The provider refused the request (401): Incorrect API key provided: sk-test. Check ANTHROPIC_API_KEY.\n",
    },
  },
  {
    name: "a rate limit (429)",
    failure: { status: 429, message: "Rate limit reached for requests" },
    line: {
      openai:
        "skillset: The provider is rate-limiting requests (429): Rate limit reached for requests. Wait a moment and try again.\n",
      anthropic:
        "skillset: The provider is rate-limiting requests (429): Rate limit reached for requests. Wait a moment and try again.\n",
    },
  },
  {
    name: "a server failure (500)",
    failure: { status: 500, message: "The server had an error while processing your request" },
    line: {
      openai: "skillset: The provider failed (500): The server had an error while processing your request.\n",
      anthropic: "skillset: The provider failed (500): The server had an error while processing your request.\n",
    },
  },
  {
    name: "a timeout",
    failure: { hang: true },
    timeoutMs: 400,
    line: {
      openai: "skillset: No answer from {url} within 0.4 s (--timeout).\n",
      anthropic: "skillset: No answer from {url} within 0.4 s (--timeout).\n",
    },
  },
  {
    name: "a response that is not the API's (an HTML page)",
    failure: { raw: "<html><body>Bad gateway</body></html>", contentType: "text/html" },
    line: {
      openai:
        "skillset: {url} answered with a web page (text/html), not the provider's API: is it the API's address? (an OpenAI-compatible server's usually ends in /v1; give it with --base-url)\n",
      anthropic:
        "skillset: {url} answered with a web page (text/html), not the provider's API: is it the API's address? (an OpenAI-compatible server's usually ends in /v1; give it with --base-url)\n",
    },
  },
];

describe.each(["openai", "anthropic"] as const)("provider errors, %s", (provider) => {
  it.each(cases)(
    "$name: one line on stderr, and the next message is answered",
    async ({ failure, timeoutMs, line }) => {
      const harness = await failingOnce(provider, failure, timeoutMs);
      expect(await harness.send("hello")).toBe("failed");
      expect(harness.stderr()).toBe(line[provider].replaceAll("{url}", harness.server.url));
      expect(harness.stdout()).toBe("");

      expect(await harness.send("are you there?")).toBe("continue");
      expect(harness.stdout()).toBe("Back again.\n");
      // The thread kept both user messages; the provider got a valid conversation.
      expect(harness.server.requests[1]!.messages.map((message) => `${message.role}: ${message.text}`)).toEqual([
        "user: hello",
        "user: are you there?",
      ]);
    },
  );

  it("a server that cannot be reached: one line naming it", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const baseUrl = provider === "openai" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
    const harness = await startSession(provider, () => ({ text: "unused" }), skills(), { baseUrl });
    open.push(harness);
    expect(await harness.send("hello")).toBe("failed");
    expect(harness.stderr()).toBe(`skillset: Cannot reach ${baseUrl}: ECONNREFUSED.\n`);
  });
});
