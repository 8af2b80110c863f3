// `npm:` string sources in the hosts: packages packed with `npm pack` and installed into a temp
// project with a real (offline) `npm install`; the process runs in the project folder, as an
// application would. The LangChain middleware in a real createAgent loop with `fakeModel()`,
// `skillset/ai` in the AI SDK's own loop with its mock model, and the MCP server (the library's
// createSkillsMcpServer) to the MCP SDK's client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as ai from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkills } from "../src/ai.js";
import { createSkillsMiddleware } from "../src/langchain.js";
import { createSkillsMcpServer } from "../src/mcp.js";
import { load, runAgent, scriptedModel, systemPromptOf, toolResults } from "./langchain/helpers.js";
import { scriptedModel as aiScriptedModel, type MockModelClass } from "./ai/scripted-model.js";
import { npmProject, skillFile, type FixturePackage } from "./helpers/npm-project.js";

const PACKAGES: FixturePackage[] = [
  {
    manifest: { name: "@scope/pkg", version: "2.3.4", exports: { ".": "./index.js" } },
    files: {
      "index.js": "export {};\n",
      "skills/pdf-forms/SKILL.md": skillFile(
        "pdf-forms",
        "Fill PDF forms with pdftk.",
        "# PDF forms\n\nUse pdftk to fill forms; the field list is in references/fields.md.\n",
      ),
      "skills/pdf-forms/references/fields.md": "name, date\n",
    },
  },
  {
    manifest: { name: "dist-skills", version: "0.9.0" },
    files: {
      "dist/skills/csv-clean/SKILL.md": skillFile("csv-clean", "Clean CSV files.", "# CSV\n\nDrop empty rows.\n"),
    },
  },
];

let fixture: ReturnType<typeof npmProject>;
const startFolder = process.cwd();
beforeAll(() => {
  fixture = npmProject(PACKAGES, { skills: ["npm:@scope/pkg", "npm:dist-skills"] });
  process.chdir(fixture.project);
}, 120_000);
afterAll(() => {
  process.chdir(startFolder);
  fixture.cleanup();
});

describe("the LangChain middleware with npm: sources", () => {
  it('sources: ["npm:"] lists the skills of the packages the project names, and load_skill reads them', async () => {
    const model = scriptedModel([[load("csv-clean")], [load("pdf-forms")]]);
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ sources: ["npm:"] })], model });
    const prompt = systemPromptOf(model, 0);
    expect(prompt).toContain("pdf-forms");
    expect(prompt).toContain("csv-clean");
    const results = toolResults(result.messages);
    expect(results.get("load-csv-clean")!.content).toContain("Drop empty rows.");
    expect(results.get("load-pdf-forms")!.content).toContain("Use pdftk to fill forms");
    expect(results.get("load-pdf-forms")!.content).toContain("references/fields.md");
    expect(result.skillsLoaded).toEqual(["csv-clean", "pdf-forms"]);
  });

  it('sources: ["npm:@scope/pkg"] reads that package only: a skill of another package is not there', async () => {
    const model = scriptedModel([[load("pdf-forms"), load("csv-clean")]]);
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ sources: ["npm:@scope/pkg"] })], model });
    expect(systemPromptOf(model, 0)).not.toContain("csv-clean");
    const results = toolResults(result.messages);
    expect(results.get("load-pdf-forms")!.status).not.toBe("error");
    expect(results.get("load-pdf-forms")!.content).toContain("Use pdftk to fill forms");
    expect(results.get("load-csv-clean")!.content).toContain("csv-clean");
    expect(results.get("load-csv-clean")!.status).toBe("error");
    expect(result.skillsLoaded).toEqual(["pdf-forms"]);
  });
});

describe("skillset/ai with npm: sources", () => {
  it("generateText loads a skill from an installed package", async () => {
    const skills = createSkills({ sources: ["npm:dist-skills", "npm:@scope/pkg"] });
    try {
      const { model, calls } = aiScriptedModel(MockLanguageModelV3 as unknown as MockModelClass, [
        [["load_skill", { skill_name: "csv-clean" }, "c1"]],
        "done",
      ]);
      const tools = skills.tools;
      const result = await ai.generateText({
        model: model as never,
        prompt: "Clean my CSV",
        tools,
        prepareStep: skills.prepareStep({ instructions: "Be careful.", tools }) as never,
        stopWhen: ai.stepCountIs(5),
      });
      expect(calls[0]!.system).toContain("csv-clean: Clean CSV files.");
      expect(calls[0]!.system).toContain("pdf-forms: Fill PDF forms with pdftk.");
      const output = result.steps[0]!.toolResults[0]!.output as unknown;
      expect(String(output)).toContain("Drop empty rows.");
    } finally {
      await skills.close();
    }
  });
});

describe("createSkillsMcpServer with npm: sources", () => {
  it("serves the packages' skills, each with its package and version, and their files", async () => {
    const server = createSkillsMcpServer({ sources: ["npm:"], watchIntervalMs: 0 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "skillset-npm-test", version: "1" });
    await client.connect(clientSide);
    try {
      const snapshot = await server.catalog.refresh();
      expect(snapshot.skills.map((skill) => [skill.name, skill.package])).toEqual([
        ["csv-clean", { name: "dist-skills", version: "0.9.0" }],
        ["pdf-forms", { name: "@scope/pkg", version: "2.3.4" }],
      ]);
      const read = await client.readResource({ uri: "skill://pdf-forms/references/fields.md" });
      expect(read.contents).toEqual([
        expect.objectContaining({ uri: "skill://pdf-forms/references/fields.md", text: "name, date\n" }),
      ]);
      const loaded = await client.callTool({ name: "load_skill", arguments: { skill_name: "csv-clean" } });
      expect((loaded.content as Array<{ text: string }>)[0]!.text).toContain("Drop empty rows.");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
