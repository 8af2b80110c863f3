import { fakeModel } from "@langchain/core/testing";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { AIMessage, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkillsMiddleware, withSkillset, type SkillsLogEntry } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";
import { load, runAgent, scriptedModel, skillFile, systemPromptOf, toolResults } from "./helpers.js";

// Code mode in the real agent loops: createAgent and deepagents' createDeepAgent, driven by a scripted
// model whose run_code imports a loaded skill's TypeScript module and calls the agent's tools.

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

const PRICING_MODULE = `export interface Line { sku: string; quantity: number }

/** Totals an order: the quantity of each line times its price. */
export async function orderTotal(lines: Line[], price: (sku: string) => Promise<number>): Promise<number> {
  let total = 0;
  for (const line of lines) total += line.quantity * (await price(line.sku));
  return total;
}
`;

function pricingSkill(folder = "") {
  const tree = tempTree("skillset-code-mode-");
  trees.push(tree);
  tree.write(
    `${folder}pricing/SKILL.md`,
    skillFile("pricing", "Prices orders.", "metadata:\n  entrypoint: lib/pricing.ts\n"),
  );
  tree.write(`${folder}pricing/lib/pricing.ts`, PRICING_MODULE);
  return tree;
}

const runCode = (code: string, id = "code-1") => ({ name: "run_code", args: { code }, id });

const PRICES: Record<string, number> = { apple: 2, pear: 3 };

describe("code mode with createAgent", () => {
  it("run_code imports the loaded skill's TypeScript module and calls the agent's tool by its camelCase name", async () => {
    const tree = pricingSkill();
    const asked: string[] = [];
    const lookupPrice = tool(
      async ({ sku }: { sku: string }) => {
        asked.push(sku);
        return { sku, price: PRICES[sku] };
      },
      { name: "lookup_price", description: "The price of a SKU.", schema: z.object({ sku: z.string() }) },
    );
    const deleteAll = tool(async () => "deleted", {
      name: "delete_all",
      description: "Deletes everything.",
      schema: z.object({}),
    });
    const events: SkillsLogEntry[] = [];
    const model = scriptedModel([
      [load("pricing")],
      [
        runCode(`import { orderTotal } from "@/skills/pricing";
const lines = [{ sku: "apple", quantity: 3 }, { sku: "pear", quantity: 2 }];
const total = await orderTotal(lines, async (sku) => (await tools.lookupPrice({ sku })).price);
console.log("priced", lines.length, "lines");
return { total };`),
      ],
      [runCode(`return await tools.deleteAll({});`, "code-2")],
    ]);
    const { result } = await runAgent({
      model,
      tools: [lookupPrice, deleteAll],
      middleware: [
        createSkillsMiddleware({
          sources: [tree.root],
          codeMode: { tools: ["lookup_price"] },
          logger: (entry) => events.push(entry),
        }),
      ],
    });
    const results = toolResults(result.messages);
    expect(results.get("code-1")).toEqual({
      content: 'Logs:\npriced 2 lines\n\nResult:\n{"total":12}',
      status: undefined,
    });
    expect(asked).toEqual(["apple", "pear"]);
    expect(results.get("code-2")).toEqual({
      content:
        "Error: the code threw an error it did not catch: Error: tools.deleteAll (delete_all) is not available to code in this agent; call delete_all directly, outside run_code, if you need it.",
      status: "error",
    });
    expect(systemPromptOf(model, 1)).toContain(
      'Modules of loaded skills, for run_code (`import { name } from "@/skills/<skill>"`):\n- @/skills/pricing (lib/pricing.ts):\n  - async orderTotal(lines: Line[], price: (sku: string) => Promise<number>): Promise<number> — Totals an order: the quantity of each line times its price.',
    );
    expect(
      events.filter((entry) => entry.event === "code_ran").map((entry) => [entry.ok, entry.thread, entry.toolCalls]),
    ).toEqual([
      [true, "thread-1", 2],
      [false, "thread-1", 1],
    ]);
  });

  it("before the skill is loaded its module cannot be imported, and the model is told to load it", async () => {
    const tree = pricingSkill();
    const model = scriptedModel([[runCode(`const { orderTotal } = await import("@/skills/pricing"); return 1;`)]]);
    const { result } = await runAgent({
      model,
      middleware: [createSkillsMiddleware({ sources: [tree.root], codeMode: true })],
    });
    expect(toolResults(result.messages).get("code-1")).toEqual({
      content:
        "Error: an import failed. Cannot import \"@/skills/pricing\": skill 'pricing' is not loaded; load it with load_skill, then run the code again. No loaded skill has a module you can import.",
      status: "error",
    });
  });

  it("without codeMode there is no run_code tool, and the text protocol refuses codeMode", async () => {
    const tree = pricingSkill();
    const names = (createSkillsMiddleware({ sources: [tree.root] }).tools as readonly { name: string }[]).map(
      (t) => t.name,
    );
    expect(names).not.toContain("run_code");
    const withCode = createSkillsMiddleware({ sources: [tree.root], codeMode: true });
    expect((withCode.tools as readonly { name: string }[]).map((t) => t.name)).toContain("run_code");
    expect(() => createSkillsMiddleware({ sources: [tree.root], codeMode: true, protocol: "text" })).toThrow(
      'createSkillsMiddleware: codeMode needs protocol: "tools"',
    );
  });
});

describe('code mode under allowedToolsPolicy: "restrict"', () => {
  it("run_code itself is allowed, and each tool its code calls is checked against the loaded skills' allowed-tools", async () => {
    const tree = tempTree("skillset-code-restrict-");
    trees.push(tree);
    tree.write(
      "pricing/SKILL.md",
      skillFile("pricing", "Prices orders.", "allowed-tools: lookup_price\nmetadata:\n  entrypoint: lib/pricing.ts\n"),
    );
    tree.write("pricing/lib/pricing.ts", PRICING_MODULE);
    const lookupPrice = tool(async ({ sku }: { sku: string }) => ({ price: PRICES[sku] }), {
      name: "lookup_price",
      description: "The price of a SKU.",
      schema: z.object({ sku: z.string() }),
    });
    let sent = false;
    const sendEmail = tool(async () => ((sent = true), "sent"), {
      name: "send_email",
      description: "Sends an email.",
      schema: z.object({}),
    });
    const model = scriptedModel([
      [load("pricing")],
      [runCode(`return (await tools.lookupPrice({ sku: "pear" })).price;`, "allowed")],
      [runCode(`return await tools.sendEmail({});`, "restricted")],
    ]);
    const { result } = await runAgent({
      model,
      tools: [lookupPrice, sendEmail],
      middleware: [
        createSkillsMiddleware({
          sources: [tree.root],
          allowedToolsPolicy: "restrict",
          codeMode: { tools: ["lookup_price", "send_email"] },
        }),
      ],
    });
    const results = toolResults(result.messages);
    expect(results.get("allowed")).toEqual({ content: "Result:\n3", status: undefined });
    expect(results.get("restricted")).toEqual({
      content:
        "Error: the code threw an error it did not catch: Error: tools.sendEmail (send_email) was refused: Tool 'send_email' is not allowed while the loaded skills (pricing) restrict tools. Allowed: lookup_price, and the skill and file-reading tools. Unload a skill with unload_skill to lift its restriction.",
      status: "error",
    });
    expect(sent).toBe(false);
  });
});

describe("code mode with createDeepAgent(withSkillset(…))", () => {
  it('deepagents\' `await import("@/skills/<name>")` works, and the code reads a file with tools.readFile', async () => {
    const tree = pricingSkill("skills/");
    tree.write("data/order.json", JSON.stringify([{ sku: "apple", quantity: 5 }]));
    const model = fakeModel()
      .respondWithTools([load("pricing")])
      .respondWithTools([
        runCode(`const { orderTotal } = await import("@/skills/pricing");
const listing = await tools.readFile({ file_path: "/data/order.json" });
// deepagents' read_file answers "@@ lines 1-1 of 1 @@" and then the lines.
return orderTotal(JSON.parse(listing.split("\\n").slice(1).join("\\n")), async () => 4);`),
      ])
      .respond(new AIMessage("done"));
    const agent = createDeepAgent(
      withSkillset(
        { model, skills: ["/skills/"], backend: new FilesystemBackend({ rootDir: tree.root, virtualMode: true }) },
        { codeMode: { tools: ["read_file"] } },
      ),
    );
    const result = await agent.invoke(
      { messages: [{ role: "user", content: "price the order" }] },
      { configurable: { thread_id: "deep-1" } },
    );
    expect(toolResults(result.messages).get("code-1")).toEqual({ content: "Result:\n20", status: undefined });
  });

  it("a state update from a tool the code calls (write_file on deepagents' StateBackend) reaches the agent's state", async () => {
    const now = new Date().toISOString();
    const file = (content: string) => ({ content, mimeType: "text/plain", created_at: now, modified_at: now });
    const model = fakeModel()
      .respondWithTools([load("pricing")])
      .respondWithTools([
        runCode(`import { orderTotal } from "@/skills/pricing";
const total = await orderTotal([{ sku: "x", quantity: 2 }], async () => 21);
await tools.writeFile({ file_path: "/out/total.txt", content: String(total) });
return total;`),
      ])
      .respond(new AIMessage("done"));
    const agent = createDeepAgent(
      withSkillset({ model, skills: ["/skills/"] }, { codeMode: { tools: ["write_file"] } }),
    );
    const result = await agent.invoke(
      {
        messages: [{ role: "user", content: "write the total" }],
        files: {
          "/skills/pricing/SKILL.md": file(
            skillFile("pricing", "Prices orders.", "metadata:\n  entrypoint: lib/pricing.ts\n"),
          ),
          "/skills/pricing/lib/pricing.ts": file(PRICING_MODULE),
        },
      } as never,
      { configurable: { thread_id: "deep-2" } },
    );
    expect(toolResults(result.messages).get("code-1")).toEqual({ content: "Result:\n42", status: undefined });
    const written = (result as unknown as { files: Record<string, { content: unknown }> }).files["/out/total.txt"];
    expect(written?.content).toBe("42");
  });
});
