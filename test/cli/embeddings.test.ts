// `--embeddings <provider:model>` on the built CLI (`npm run build` first): search, mcp, chat and
// eval rank by meaning too, through the real @langchain/openai against a local server that speaks
// OpenAI's embeddings API, with vectors cached under XDG_CACHE_HOME across runs.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { useEmbeddingsCli } from "../helpers/embeddings-cli.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { inOrder } from "../helpers/fake-provider-server.js";
import { baseEnv, CLI, runCli } from "../helpers/run-cli.js";
import { tempFolders } from "../helpers/skill-tree.js";

const SPEC = "openai:text-embedding-3-small";
const folders = tempFolders();
afterEach(() => folders.cleanup());
// 250 skills of about 28 tokens a line, over the default 5,000-token budget, so the model gets search_skills.
const cli = useEmbeddingsCli("skillset-embeddings-cli-", (library) => {
  for (let index = 0; index < 250; index++) {
    library.skill(
      `tool-${String(index).padStart(3, "0")}`,
      undefined,
      `Handles chores of kind ${index} for the team, with checks, reports and follow-ups that keep the backlog tidy.`,
    );
  }
  library.skill(
    "screen-reader-check",
    undefined,
    "Check web pages with screen readers, keyboard navigation and colour contrast.",
  );
});
const batchSizes = () => cli.embeddings.requests.map((request) => request.input.length);

describe("skillset search --embeddings", { timeout: 60_000 }, () => {
  it("embeds the library on the first run only: a second run sends the query alone", async () => {
    const first = await runCli(
      [
        "search",
        "keyboard navigation for blind readers",
        cli.library.root,
        "--embeddings",
        SPEC,
        "--json",
        "--limit",
        "3",
      ],
      { env: cli.env() },
    );
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as { results: Array<{ name: string }> }).results[0]!.name).toBe(
      "screen-reader-check",
    );
    expect(batchSizes()).toEqual([251, 1]);
    expect(readdirSync(join(cli.cache, "skillset", "embeddings"))).toEqual([
      expect.stringMatching(/^openai-text-embedding-3-small-[0-9a-f]{12}\.vectors$/),
    ]);

    cli.embeddings.requests.length = 0;
    const second = await runCli(
      [
        "search",
        "keyboard navigation for blind readers",
        cli.library.root,
        "--embeddings",
        SPEC,
        "--json",
        "--limit",
        "3",
      ],
      { env: cli.env() },
    );
    expect(second.stdout).toBe(first.stdout);
    expect(cli.embeddings.requests.map((request) => request.input)).toEqual([
      ["keyboard navigation for blind readers"],
    ]);
  });

  it("refuses a malformed or unknown provider, a missing key or package, and reports a provider's refusal", async () => {
    expect(await runCli(["search", "x", cli.library.root, "--embeddings", "openai"], { env: cli.env() })).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --embeddings must be <provider>:<model>, e.g. openai:text-embedding-3-small (got 'openai')\n",
    });
    expect(
      (await runCli(["search", "x", cli.library.root, "--embeddings", "acme:m1"], { env: cli.env() })).stderr,
    ).toBe(
      "skillset: Unknown embeddings provider 'acme': use one of openai, ollama, mistralai, cohere, google-genai\n",
    );
    expect(
      (await runCli(["search", "x", cli.library.root, "--embeddings", SPEC], { env: { XDG_CACHE_HOME: cli.cache } }))
        .stderr,
    ).toBe(`skillset: OPENAI_API_KEY is not set: export your openai API key to use --embeddings ${SPEC}\n`);
    const hidden = await runCli(["search", "x", cli.library.root, "--embeddings", SPEC], {
      env: cli.env(),
      hidePackages: ["@langchain/openai"],
    });
    expect(hidden).toMatchObject({
      code: 1,
      stderr: `skillset: --embeddings ${SPEC} needs the package @langchain/openai, which is not installed: npm install @langchain/openai\n`,
    });

    cli.embeddings.failWith = 401;
    const refused = await runCli(["search", "x", cli.library.root, "--embeddings", SPEC], { env: cli.env() });
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toMatch(
      /^skillset: --embeddings openai:text-embedding-3-small failed: .*The embeddings service is down\n$/,
    );
  });
});

describe("skillset mcp and chat --embeddings", { timeout: 120_000 }, () => {
  it("mcp: search_skills ranks by meaning too", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", cli.library.root, "--embeddings", SPEC],
      env: baseEnv(cli.env()) as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "skillset-test", version: "1" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("search_skills");
      const found = (await client.callTool({
        name: "search_skills",
        arguments: { query: "keyboard navigation for blind readers", limit: 1 },
      })) as { content: Array<{ text: string }> };
      expect(found.content[0]!.text).toContain("- screen-reader-check: ");
      expect(batchSizes()).toEqual([251, 1]);
    } finally {
      await client.close();
    }
  });

  it("chat: the model's search_skills sends the library and the query to the embeddings model", async () => {
    const model = await startFakeOpenAIServer(
      inOrder([
        { toolCalls: [{ name: "search_skills", args: { query: "keyboard navigation for blind readers" } }] },
        { text: "Found it." },
      ]),
    );
    try {
      const data = folders.make("skillset-data-");
      const result = await runCli(
        ["chat", cli.library.root, "--model", "openai:gpt-test", "--base-url", model.url, "--embeddings", SPEC],
        { input: "check my site\n", env: { ...cli.env(), OPENAI_API_KEY: "sk-test", XDG_DATA_HOME: data } },
      );
      expect(result.stdout).toBe("Found it.\n");
      expect(batchSizes()).toEqual([251, 1]);
      const tool = model.requests[1]!.messages.find((message) => message.role === "tool")!;
      expect(tool.text).toMatch(
        /^Skills matching 'keyboard navigation for blind readers', best first:\n- screen-reader-check: /,
      );
    } finally {
      await model.close();
    }
  });

  it("eval: the agent's search_skills goes through the embeddings model too", async () => {
    const model = await startFakeOpenAIServer((request) =>
      request.messages.some((message) => message.role === "tool")
        ? { text: "Done." }
        : { toolCalls: [{ name: "search_skills", args: { query: "keyboard navigation for blind readers" } }] },
    );
    try {
      const cases = join(folders.make("skillset-cases-"), "cases.yaml");
      writeFileSync(cases, "cases:\n  - id: audit\n    request: check my site for blind users\n    expected: none\n");
      const result = await runCli(
        [
          "eval",
          cases,
          cli.library.root,
          "--model",
          "openai:gpt-test",
          "--base-url",
          model.url,
          "--embeddings",
          SPEC,
          "--json",
        ],
        { env: { ...cli.env(), OPENAI_API_KEY: "sk-test" } },
      );
      expect(result.code).toBe(0);
      expect(batchSizes()).toEqual([251, 1]);
    } finally {
      await model.close();
    }
  });

  it("mcp: when the embeddings provider fails, search_skills answers by words and stderr says so once", async () => {
    cli.embeddings.failWith = 401;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", cli.library.root, "--embeddings", SPEC],
      env: baseEnv(cli.env()) as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "skillset-test", version: "1" });
    await client.connect(transport);
    try {
      await client.listTools();
      for (const query of ["screen readers and keyboard navigation", "colour contrast"]) {
        const found = (await client.callTool({ name: "search_skills", arguments: { query, limit: 1 } })) as {
          content: Array<{ text: string }>;
          isError?: boolean;
        };
        expect(found.isError).toBeFalsy();
        expect(found.content[0]!.text).toContain("- screen-reader-check: ");
      }
      expect(
        stderr.match(/--embeddings openai:text-embedding-3-small failed \(.*\); searching by words only\./g),
      ).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
