// Each skill tool, and run_code, is defined once (src/core/tools/skill-tool-definitions.ts) and every
// host builds its own from that definition (here with code mode on, so run_code is among them). Checked here on what the hosts actually offer a model, each read
// through its own framework: the names, the JSON Schemas of the inputs and the descriptions must
// be the same in LangChain, the AI SDK and the MCP server, and the definitions'.
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { asSchema, type ToolSet } from "ai";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkills } from "../src/ai.js";
import { LOAD_SKILL, RUN_CODE, SKILL_TOOL_DEFINITIONS } from "../src/core/tools/skill-tool-definitions.js";
import type { ScriptExecutor } from "../src/exec/script-executor.js";
import { createMemorySource } from "../src/index.js";
import { createSkillsMiddleware } from "../src/langchain.js";
import { createSkillsMcpServer, type SkillsMcpServer } from "../src/mcp.js";

/** What a host offers a model for one tool. */
interface OfferedTool {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

// More skills than the catalog budget holds, so the MCP server offers search_skills as the
// others are told to.
const files = Object.fromEntries(
  Array.from({ length: 200 }, (_, index) => [
    `/skills/chore-${index}/SKILL.md`,
    `---\nname: chore-${index}\ndescription: Handles chores of kind ${index} for the team, with checks, reports and follow-ups that keep the backlog of kind ${index} tidy and current.\n---\n\nDo chore ${index}.\n`,
  ]),
);
const sources = () => [createMemorySource({ files })];
const executor: ScriptExecutor = {
  specificationVersion: "v1",
  run: async () => ({
    exitCode: 0,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    durationMs: 0,
  }),
};

// Hosts convert the same zod schema with their own settings: LangChain and the AI SDK add
// `additionalProperties: false` (zod's output mode), the MCP SDK does not, and `$schema` names the
// dialect. What the model is told (types, bounds, required fields, descriptions) is compared as it is.
function comparable(schema: unknown): Record<string, unknown> {
  const { $schema: _dialect, additionalProperties: _extra, ...rest } = schema as Record<string, unknown>;
  return rest;
}

function byName(tools: OfferedTool[]): OfferedTool[] {
  return [...tools].sort((a, b) => a.name.localeCompare(b.name));
}

function langchainTools(): OfferedTool[] {
  const middleware = createSkillsMiddleware({
    sources: sources(),
    searchSkills: true,
    runScripts: { executor },
    codeMode: true,
  });
  return (middleware.tools as StructuredToolInterface[]).map((tool) => {
    const offered = convertToOpenAITool(tool).function;
    return { name: offered.name, description: offered.description ?? "", schema: comparable(offered.parameters) };
  });
}

async function aiSdkTools(): Promise<OfferedTool[]> {
  const skills = createSkills({ sources: sources(), searchSkills: true, runScripts: { executor }, codeMode: true });
  const tools: ToolSet = skills.thread("definitions").tools;
  return Promise.all(
    Object.entries(tools).map(async ([name, tool]) => ({
      name,
      description: tool.description ?? "",
      schema: comparable(await asSchema(tool.inputSchema).jsonSchema),
    })),
  );
}

describe("skill tools, defined once", () => {
  let server: SkillsMcpServer;
  let client: Client;
  beforeAll(async () => {
    server = createSkillsMcpServer({
      sources: sources(),
      runScripts: { executor },
      codeMode: true,
      watchIntervalMs: 0,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: "tool-definitions-test", version: "1" });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  async function mcpTools(): Promise<OfferedTool[]> {
    const { tools } = await client.listTools();
    return tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      schema: comparable(tool.inputSchema),
    }));
  }

  it("LangChain, the AI SDK and the MCP server offer the same tools, with the same inputs, as defined", async () => {
    const defined = byName(
      [...SKILL_TOOL_DEFINITIONS, RUN_CODE].map((definition) => ({
        name: definition.name,
        description: definition.description,
        schema: comparable(z.toJSONSchema(definition.input, { io: "input" })),
      })),
    );
    const hosts = { langchain: langchainTools(), ai: await aiSdkTools(), mcp: await mcpTools() };
    // Soft, so that a drift is reported for every host that has it.
    for (const [host, tools] of Object.entries(hosts)) {
      const offered = byName(tools);
      expect
        .soft(
          offered.map((tool) => tool.name),
          host,
        )
        .toEqual(defined.map((tool) => tool.name));
      for (const [index, tool] of offered.entries()) {
        const definition = defined[index]!;
        expect.soft(tool.schema, `${host} ${tool.name}`).toEqual(definition.schema);
        // MCP has no system prompt of its own: its load_skill description goes on with the catalog.
        if (host === "mcp" && tool.name === LOAD_SKILL.name) {
          expect.soft(tool.description, `${host} ${tool.name}`).toMatch(/\n\n[^]*- chore-0: /);
          expect.soft(tool.description.startsWith(`${definition.description}\n\n`), `${host} ${tool.name}`).toBe(true);
        } else expect.soft(tool.description, `${host} ${tool.name}`).toBe(definition.description);
      }
    }
  });

  it("every host refuses the same out-of-bounds input the definitions do", async () => {
    const tooLong = { skill_name: "x".repeat(257) };
    expect(LOAD_SKILL.input.safeParse(tooLong).success).toBe(false);
    const loadTool = (createSkillsMiddleware({ sources: sources() }).tools as StructuredToolInterface[]).find(
      (tool) => tool.name === LOAD_SKILL.name,
    )!;
    await expect(loadTool.invoke(tooLong)).rejects.toThrow(/schema/i);
    const aiLoad = createSkills({ sources: sources() }).thread("bounds").tools[LOAD_SKILL.name]!;
    expect((await asSchema(aiLoad.inputSchema).validate!(tooLong)).success).toBe(false);
    const result = await client.callTool({ name: LOAD_SKILL.name, arguments: tooLong });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("expected string to have <=256 characters at skill_name");
  });
});
