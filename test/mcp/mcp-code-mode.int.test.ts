// run_code on the MCP server (createSkillsMcpServer({ codeMode })), through the MCP SDK's own client: a
// session's code imports the modules of the skills that session loaded, and nothing of another session's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillsMcpServer, type SkillsMcpServer } from "../../src/mcp.js";
import { tempTree } from "../helpers/skill-tree.js";
import { stdioClient } from "./helpers.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function library() {
  const tree = tempTree("skillset-mcp-code-");
  cleanups.push(() => tree.cleanup());
  tree.write(
    "skills/units/SKILL.md",
    "---\nname: units\ndescription: Converts units.\nmetadata:\n  entrypoint: units.ts\n---\n\nImport the module.\n",
  );
  tree.write(
    "skills/units/units.ts",
    "/** Miles to kilometres. */\nexport function milesToKm(miles: number): number {\n  return Math.round(miles * 1.609344 * 100) / 100;\n}\n",
  );
  return tree;
}

async function connect(server: SkillsMcpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "code-mode-test", version: "1" });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { text: (result.content[0] as { text: string }).text, isError: result.isError === true };
}

describe("the MCP server's run_code", () => {
  it("imports the session's loaded skill; another session has not loaded it, and shares no values", async () => {
    const tree = library();
    const server = createSkillsMcpServer({
      sources: [`${tree.root}/skills`],
      codeMode: { keepValues: true },
      watchIntervalMs: 0,
    });
    cleanups.push(() => server.close());
    const first = await connect(server);
    const second = await connect(server);
    expect((await first.listTools()).tools.map((tool) => tool.name)).toContain("run_code");

    const loaded = await call(first, "load_skill", { skill_name: "units" });
    expect(
      loaded.text.endsWith(
        '\n\nModules of loaded skills, for run_code (`import { name } from "@/skills/<skill>"`):\n- @/skills/units (units.ts):\n  - milesToKm(miles: number): number — Miles to kilometres.',
      ),
    ).toBe(true);
    const code = `import { milesToKm } from "@/skills/units"; globalThis.seen = "first"; return milesToKm(26.2);`;
    expect(await call(first, "run_code", { code })).toEqual({ text: "Result:\n42.16", isError: false });

    expect(await call(second, "run_code", { code: "return globalThis.seen ?? 'nothing';" })).toEqual({
      text: 'Result:\n"nothing"',
      isError: false,
    });
    expect(await call(second, "run_code", { code })).toEqual({
      text: "Error: an import failed. Cannot import \"@/skills/units\": skill 'units' is not loaded; load it with load_skill, then run the code again. No loaded skill has a module you can import.",
      isError: true,
    });
    // The code reaches no tool: the skill tools are not callable from code.
    const tools = await call(first, "run_code", { code: "return Object.keys(tools);" });
    expect(tools).toEqual({ text: "Result:\n[]", isError: false });
  });

  it("is not offered without codeMode", async () => {
    const tree = library();
    const server = createSkillsMcpServer({ sources: [`${tree.root}/skills`], watchIntervalMs: 0 });
    cleanups.push(() => server.close());
    const client = await connect(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("run_code");
    const loaded = await call(client, "load_skill", { skill_name: "units" });
    expect(loaded.text).not.toContain("Modules of loaded skills");
  });
});

describe("skillset mcp --allow-code", () => {
  it("serves run_code over stdio from the built CLI; without the flag it is not offered", async () => {
    const tree = library();
    const withCode = await stdioClient([`${tree.root}/skills`, "--allow-code"]);
    cleanups.push(() => withCode.close());
    await call(withCode.client, "load_skill", { skill_name: "units" });
    expect(
      await call(withCode.client, "run_code", {
        code: 'const { milesToKm } = await import("@/skills/units"); console.log("ok"); return milesToKm(1);',
      }),
    ).toEqual({ text: "Logs:\nok\n\nResult:\n1.61", isError: false });
    const without = await stdioClient([`${tree.root}/skills`]);
    cleanups.push(() => without.close());
    expect((await without.client.listTools()).tools.map((tool) => tool.name)).not.toContain("run_code");
  });
});
