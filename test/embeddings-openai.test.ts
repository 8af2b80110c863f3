// Search by meaning through the real @langchain/openai OpenAIEmbeddings, talking to a local server
// that speaks OpenAI's embeddings API, with vectors cached on disk: counting the texts the server
// is sent shows what the cache saves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddingRanker } from "../src/core/search/embedding-ranker.js";
import { createSkillEngine } from "../src/core/engine/skill-engine.js";
import type { SkillMetadata } from "../src/core/skill-file/skill-metadata.js";
import { createLexicalRanker } from "../src/core/search/skill-search.js";
import { createEmbeddingCache } from "../src/node/embedding-cache.js";
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from "./helpers/fake-openai-embeddings-server.js";

const MODEL = "text-embedding-3-small";
const skill = (name: string, description: string): SkillMetadata => ({
  name,
  description,
  path: `/lib/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "local:/lib",
});
// 2,000 skills: four batches of at most 512 texts on the first search.
const LIBRARY = Array.from({ length: 2_000 }, (_, index) =>
  skill(`task-${String(index).padStart(4, "0")}`, `Handles ticket ${index} of the queue for its team.`),
);
LIBRARY.push(
  skill("accessibility-audit", "Audit websites for accessibility: contrast, keyboard navigation, screen readers."),
);

let server: FakeEmbeddingsServer;
let folder: string;
beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(() => server.close());
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "skillset-embeddings-"));
  server.requests.length = 0;
  server.failWith = 0;
  return () => rmSync(folder, { recursive: true, force: true });
});

// What one process builds: a new embeddings client, a new ranker, the same cache folder.
const rankerFor = () =>
  createEmbeddingRanker(
    new OpenAIEmbeddings({ model: MODEL, apiKey: "test-key", maxRetries: 0, configuration: { baseURL: server.url } }),
    { cache: createEmbeddingCache({ model: `openai:${MODEL}`, folder }) },
  );
const textsSent = () => server.requests.reduce((sum, request) => sum + request.input.length, 0);

describe("createEmbeddingRanker over OpenAIEmbeddings, cached on disk", () => {
  it("embeds a library once; a new process embeds only the query; a changed skill alone is embedded again", async () => {
    expect((await rankerFor()("make my web site usable with a screen reader", LIBRARY, 3))[0]!.name).toBe(
      "accessibility-audit",
    );
    expect(server.requests.map((request) => request.input.length)).toEqual([512, 512, 512, 465, 1]);
    expect(server.requests.every((request) => request.model === MODEL)).toBe(true);

    server.requests.length = 0;
    expect((await rankerFor()("screen reader navigation", LIBRARY, 3))[0]!.name).toBe("accessibility-audit");
    expect(server.requests.map((request) => request.input)).toEqual([["screen reader navigation"]]);

    server.requests.length = 0;
    const changed = LIBRARY.map((entry) =>
      entry.name === "task-0007" ? { ...entry, description: "Handles ticket 7, now about invoices." } : entry,
    );
    await rankerFor()("invoices", changed, 3);
    expect(server.requests.map((request) => request.input)).toEqual([
      ["task 0007: Handles ticket 7, now about invoices."],
      ["invoices"],
    ]);
    expect(textsSent()).toBe(2);
  });

  it("fused with the lexical ranker in the engine, finds by meaning what words alone miss", async () => {
    const skills = [
      skill("pdf-forms", "Fill in PDF forms."),
      skill("screen-reader-check", "Check pages with screen readers, keyboard navigation and contrast."),
    ];
    const state = { skills, loaded: [], resources: {} };
    const lexical = await createSkillEngine().search(
      { state, sources: async () => [] },
      { query: "navigation by keyboard for readers" },
    );
    const hybrid = await createSkillEngine({ search: { rankers: [createLexicalRanker(), rankerFor()] } }).search(
      { state, sources: async () => [] },
      { query: "navigation by keyboard for readers" },
    );
    expect(hybrid.results[0]!.name).toBe("screen-reader-check");
    expect(hybrid.results.map((result) => result.name)).toEqual(
      expect.arrayContaining(lexical.results.map((result) => result.name)),
    );
  });

  it("a provider error reaches the caller as the provider's message, and nothing is cached", async () => {
    server.failWith = 500;
    await expect(rankerFor()("anything", LIBRARY.slice(0, 3), 3)).rejects.toThrow("The embeddings service is down");
    server.failWith = 0;
    server.requests.length = 0;
    await rankerFor()("anything", LIBRARY.slice(0, 3), 3);
    expect(server.requests.map((request) => request.input.length)).toEqual([3, 1]);
  });
});
