// A library larger than the catalog budget, through the real createAgent loop: the catalog fits
// the budget, search_skills is offered and finds a skill the catalog leaves out, and that skill
// loads; a small library is not offered the tool at all.
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, type BaseMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { countTokens, type SkillsLogEntry } from "../../src/index.js";
import { createSkillsMiddleware } from "../../src/langchain.js";
import {
  type ScriptedCall,
  load,
  scriptedModel,
  skillFile,
  skillTree,
  systemPromptOf,
  toolResults,
  recordBoundTools,
} from "./helpers.js";

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function library(size: number): string {
  const files: Record<string, string> = {};
  for (let index = 0; index < size; index++) {
    const name = `chore-${String(index).padStart(3, "0")}`;
    files[`${name}/SKILL.md`] = skillFile(
      name,
      `Runs monthly chore ${index} of the finance close: reconciles ledgers and files a short summary.`,
    );
  }
  files["zz-tax-forms/SKILL.md"] = skillFile("zz-tax-forms", "Fills in quarterly VAT returns and payroll tax forms.");
  const tree = skillTree(files);
  trees.push(tree);
  return tree.root;
}

const search = (query: string, id: string): ScriptedCall => ({ name: "search_skills", args: { query }, id });

describe("a library over the catalog budget", () => {
  it("fits the catalog to the budget, offers search_skills, and a skill found by search loads", async () => {
    const root = library(150);
    const model = scriptedModel([[search("VAT tax forms", "s1")], [load("zz-tax-forms", "l1")]]);
    const bound = recordBoundTools(model);
    const events: SkillsLogEntry[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        createSkillsMiddleware({ sources: [root], catalogBudget: 600, logger: (entry) => events.push(entry) }),
      ],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [{ role: "user", content: "File the VAT return." }] },
      { configurable: { thread_id: "big" } },
    );

    const prompt = systemPromptOf(model, 0);
    const catalog = prompt.slice(prompt.indexOf("## Skills"), prompt.indexOf("\n\nLoaded skills"));
    expect(await countTokens(catalog)).toBeLessThanOrEqual(600);
    expect(catalog).not.toContain("zz-tax-forms");
    expect(catalog).toMatch(/\n- \d+ more skills are not listed here: find them with `search_skills`\.\n/);
    expect(bound).toEqual([
      ["load_skill", "unload_skill", "search_skills", "read_skill_resource"],
      ["load_skill", "unload_skill", "search_skills", "read_skill_resource"],
      ["load_skill", "unload_skill", "search_skills", "read_skill_resource"],
    ]);
    const results = toolResults(result.messages as BaseMessage[]);
    expect(results.get("s1")).toEqual({
      content:
        "Skills matching 'VAT tax forms', best first:\n- zz-tax-forms: Fills in quarterly VAT returns and payroll tax forms.\nLoad one with load_skill to use it.",
      status: "success",
    });
    expect(results.get("l1")!.content.startsWith('<skill name="zz-tax-forms"')).toBe(true);
    expect(result.skillsLoaded).toEqual(["zz-tax-forms"]);
    expect(events.filter((entry) => entry.event === "catalog_over_budget")).toHaveLength(1);
    expect(events.find((entry) => entry.event === "skills_searched")).toMatchObject({
      query: "VAT tax forms",
      results: expect.any(Number),
    });
  });

  it("tells the model that no skill matches well, with the weak matches apart, when nothing in the library fits", async () => {
    const root = library(150);
    const model = scriptedModel([
      [search("write a Dockerfile that files the summary", "s1")],
      "No skill fits; writing it by hand.",
    ]);
    const events: SkillsLogEntry[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        createSkillsMiddleware({ sources: [root], catalogBudget: 600, logger: (entry) => events.push(entry) }),
      ],
    });
    const result = await agent.invoke({
      messages: [{ role: "user", content: "Write a Dockerfile for the close job." }],
    });
    const text = toolResults(result.messages as BaseMessage[]).get("s1")!.content;
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "No skill matches 'write a Dockerfile that files the summary' well. The closest, weak matches (probably not what the task needs):",
    );
    expect(lines.slice(1, -1)).toHaveLength(5);
    expect(
      lines.slice(1, -1).every((line) => /^- chore-\d{3}: Runs monthly chore \d+ of the finance close/.test(line)),
    ).toBe(true);
    expect(lines.at(-1)).toBe("Load one only if it clearly fits; otherwise try other words, or go on without a skill.");
    expect(result.skillsLoaded).toEqual([]);
    expect(events.find((entry) => entry.event === "skills_searched")).toMatchObject({ results: 0, weakMatches: 5 });
  });

  it("keeps the catalog byte-stable across turns and threads while the library does not change", async () => {
    const root = library(150);
    const middleware = createSkillsMiddleware({ sources: [root], catalogBudget: 600 });
    const model = scriptedModel(["one", [load("chore-001", "l1")], "two", "three"]);
    const agent = createAgent({ model, tools: [], middleware: [middleware], checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [{ role: "user", content: "Hi" }] }, { configurable: { thread_id: "a" } });
    await agent.invoke({ messages: [{ role: "user", content: "Load one" }] }, { configurable: { thread_id: "a" } });
    await agent.invoke({ messages: [{ role: "user", content: "Hi" }] }, { configurable: { thread_id: "b" } });
    const catalogs = model.calls.map((_, index) => {
      const prompt = systemPromptOf(model, index);
      return prompt.slice(0, prompt.indexOf("\n\nLoaded skills"));
    });
    expect(new Set(catalogs).size).toBe(1);
  });

  it("does not offer search_skills while every skill fits, unless asked; never with searchSkills: false", async () => {
    const offered = async (options: Parameters<typeof createSkillsMiddleware>[0]) => {
      const model = scriptedModel([]);
      const bound = recordBoundTools(model);
      const agent = createAgent({ model, tools: [], middleware: [createSkillsMiddleware(options)] });
      await agent.invoke({ messages: [{ role: "user", content: "Hi" }] });
      return bound[0];
    };
    const small = library(3);
    expect(await offered({ sources: [small] })).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
    expect(await offered({ sources: [small], searchSkills: true })).toEqual([
      "load_skill",
      "unload_skill",
      "search_skills",
      "read_skill_resource",
    ]);
    expect(await offered({ sources: [library(150)], catalogBudget: 600, searchSkills: false })).toEqual([
      "load_skill",
      "unload_skill",
      "read_skill_resource",
    ]);
  });

  it("refuses a budget too small for the guidance, naming the option", () => {
    expect(() => createSkillsMiddleware({ sources: ["/tmp"], catalogBudget: 100 })).toThrow(
      /createSkillsMiddleware: .*catalogBudget/s,
    );
  });
});
