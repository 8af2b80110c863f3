import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import {
  type BackendRuntime,
  createDeepAgent,
  createSummarizationMiddleware,
  DEFAULT_SUBAGENT_PROMPT,
  FilesystemBackend,
  StateBackend,
} from "deepagents";
import { AIMessage, HumanMessage, summarizationMiddleware, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CATALOG_GUIDANCE } from "../../src/index.js";
import { createSkillsMiddleware, type SkillsLogEntry } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";
import { expectedSkillBody } from "./helpers.js";

// Integration of the skills middleware with deepagents 1.14.1's createDeepAgent, driven by a
// scripted fake model. deepagents merges middleware by name, so ours ("SkillsMiddleware")
// replaces the built-in skills middleware in the main agent and in the general-purpose subagent.

type FakeModel = ReturnType<typeof fakeModel>;
type Tree = ReturnType<typeof tempTree>;

const trees: Tree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

/** A temp folder with skills under `/skills/` (virtual paths of a FilesystemBackend rooted there). */
function skillTree(): Tree {
  const tree = tempTree("skillset-deepagents-");
  trees.push(tree);
  return tree;
}

function skillText(
  name: string,
  description = `Use ${name} for tests.`,
  extra = "",
  body = `# ${name}\n\nInstructions.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;
}

const USER = { role: "user", content: "go" } as const;
const TAIL = "Read a loaded skill's resources with `read_file`; its `allowed-tools` are recommendations.";
const RESTORE_HEADING =
  "Instructions of loaded skills whose load_skill results are no longer in the conversation (they are still loaded; follow them):";

/** The text of the system message the model got on its `index`-th call. */
function systemText(model: FakeModel, index: number): string {
  const first = model.calls[index]!.messages[0]!;
  expect(first.type).toBe("system");
  return first.text;
}

/** Asserts that `text` ends with `suffix`, with a readable diff when it does not. */
function expectEnd(text: string, suffix: string): void {
  expect(text.slice(Math.max(0, text.length - suffix.length))).toBe(suffix);
}

/** The catalog section our middleware appends for the given `- name: description` lines. */
function catalogSection(lines: string[]): string {
  return `${CATALOG_GUIDANCE.replaceAll("{load}", "load_skill").replaceAll("{unload}", "unload_skill")}\n\n${lines.join("\n")}\n${TAIL}`;
}

function toolMessages(
  messages: readonly BaseMessage[],
): Array<{ name: string | undefined; id: string; status: string | undefined; text: string }> {
  return messages
    .filter((message) => message.type === "tool")
    .map((message) => {
      const tm = message as BaseMessage & { tool_call_id: string; status?: string };
      return { name: tm.name, id: tm.tool_call_id, status: tm.status, text: tm.text };
    });
}

describe("createDeepAgent with the skillset middleware", () => {
  it("replaces the built-in skills middleware on a FilesystemBackend; load_skill and the FilesystemMiddleware's read_file work side by side", async () => {
    const tree = skillTree();
    tree.write("skills/alpha/SKILL.md", skillText("alpha"));
    tree.write("skills/alpha/references/guide.md", "GUIDE CONTENT\n");
    const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-1" }])
      // The resource path comes from the load result the model just got.
      .respond((messages: BaseMessage[]) => {
        const result = messages.at(-1)!.text;
        const match = /<skill_resources base="([^"]+)">\n- \[reference\] (\S+)/.exec(result);
        if (!match) return new Error(`no resource in the load result: ${result}`);
        return new AIMessage({
          content: "",
          tool_calls: [
            { name: "read_file", args: { file_path: `${match[1]}/${match[2]}` }, id: "read-1", type: "tool_call" },
          ],
        });
      })
      .respond(new AIMessage("done"));
    const agent = createDeepAgent({
      model,
      backend,
      systemPrompt: "You are X.",
      skills: ["/skills/"],
      middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend })],
    });

    const result = await agent.invoke({ messages: [USER] });

    // Our catalog, not deepagents' "## Skills System" section.
    expect(systemText(model, 0)).toBe(
      `You are X.\n\n${catalogSection(["- alpha: Use alpha for tests."])}\n\nLoaded skills: none (10 slots free).`,
    );
    for (let index = 0; index < 3; index++) expect(systemText(model, index)).not.toContain("Skills System");
    expectEnd(systemText(model, 1), `\n\nLoaded skills (1/10, 9 slots free):\n- alpha (1 reference)`);

    expect(toolMessages(result.messages)).toEqual([
      {
        name: "load_skill",
        id: "load-1",
        status: undefined,
        text:
          `<skill name="alpha" path="/skills/alpha/SKILL.md">\n${skillText("alpha")}\n</skill>\n` +
          `<skill_resources base="/skills/alpha">\n- [reference] references/guide.md\n</skill_resources>\n` +
          "Paths above are relative to /skills/alpha; read them with `read_file` when the instructions call for them.",
      },
      { name: "read_file", id: "read-1", status: "success", text: "@@ lines 1-1 of 1 @@\nGUIDE CONTENT" },
    ]);
    expect((result.messages.at(-1) as BaseMessage).text).toBe("done");
    expect(result.skillsLoaded).toEqual(["alpha"]);
    expect(result.skillResources).toEqual({
      alpha: [
        { path: "/skills/alpha/references/guide.md", relativePath: "references/guide.md", type: "reference", size: 14 },
      ],
    });
    expect(result).not.toHaveProperty("skillsMetadata");
    expect(model.callCount).toBe(3);
  });

  describe("on deepagents' default StateBackend, with the skills passed as `files` in the input", () => {
    const now = new Date().toISOString();
    const file = (content: string) => ({ content, mimeType: "text/markdown", created_at: now, modified_at: now });
    const files = {
      "/skills/alpha/SKILL.md": file(skillText("alpha")),
      "/skills/alpha/references/r.md": file("RESOURCE R"),
    };

    async function runWith(backend: (runtime: unknown) => StateBackend) {
      const model = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-1" }])
        .respondWithTools([{ name: "read_file", args: { file_path: "/skills/alpha/references/r.md" }, id: "read-1" }])
        .respond(new AIMessage("done"));
      // No `backend` for createDeepAgent: its default is the StateBackend factory.
      const agent = createDeepAgent({
        model,
        skills: ["/skills/"],
        middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend })],
      });
      const result = await agent.invoke({ messages: [USER], files });
      return { model, result };
    }

    function expectLoaded({ model, result }: Awaited<ReturnType<typeof runWith>>) {
      // deepagents gives no system prompt of its own here: the skills section starts the message.
      expect(systemText(model, 0)).toBe(
        `${catalogSection(["- alpha: Use alpha for tests."])}\n\nLoaded skills: none (10 slots free).`,
      );
      expect(toolMessages(result.messages)).toEqual([
        {
          name: "load_skill",
          id: "load-1",
          status: undefined,
          text:
            `<skill name="alpha" path="/skills/alpha/SKILL.md">\n${skillText("alpha")}\n</skill>\n` +
            `<skill_resources base="/skills/alpha">\n- [reference] references/r.md\n</skill_resources>\n` +
            "Paths above are relative to /skills/alpha; read them with `read_file` when the instructions call for them.",
        },
        { name: "read_file", id: "read-1", status: "success", text: "@@ lines 1-1 of 1 @@\nRESOURCE R" },
      ]);
      expect(result.skillsLoaded).toEqual(["alpha"]);
      expect(result.skillResources).toEqual({
        alpha: [
          { path: "/skills/alpha/references/r.md", relativePath: "references/r.md", type: "reference", size: 10 },
        ],
      });
    }

    it("loads a skill through a factory returning the zero-arg StateBackend", async () => {
      expectLoaded(await runWith(() => new StateBackend()));
    });

    // A hook's state holds only the middleware's own fields, so the middleware hands the factory
    // a state whose `files` is read from the running graph (graph-context.ts).
    it("loads a skill through the documented `(runtime) => new StateBackend(runtime)` factory", async () => {
      expectLoaded(await runWith((runtime) => new StateBackend(runtime as BackendRuntime)));
    });
  });

  describe("subagent isolation (general-purpose subagent on the same fake model)", () => {
    function agentWith(model: FakeModel) {
      const tree = skillTree();
      tree.write("skills/alpha/SKILL.md", skillText("alpha"));
      tree.write("skills/beta/SKILL.md", skillText("beta"));
      const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
      return createDeepAgent({
        model,
        backend,
        skills: ["/skills/"],
        middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend })],
      });
    }
    const catalog = `${catalogSection(["- alpha: Use alpha for tests.", "- beta: Use beta for tests."])}\n\n`;
    // The general-purpose subagent's own prompt comes first in its system message.
    const subCatalog = `${DEFAULT_SUBAGENT_PROMPT}\n\n${catalog}`;

    it("the parent's load does not reach the subagent, and the subagent's load does not come back", async () => {
      const model = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-a" }]) // 0: parent
        .respondWithTools([
          { name: "task", args: { description: "use beta", subagent_type: "general-purpose" }, id: "task-1" },
        ]) // 1: parent
        .respondWithTools([{ name: "load_skill", args: { skill_name: "beta" }, id: "load-b" }]) // 2: subagent
        .respond(new AIMessage("sub done")) // 3: subagent
        .respond(new AIMessage("done")); // 4: parent
      const result = await agentWith(model).invoke({ messages: [USER] });

      expect(model.callCount).toBe(5);
      // The subagent starts from its task description with nothing loaded: alpha did not leak down.
      expect(
        model.calls[2]!.messages.map((message) => [message.type, message.type === "system" ? "" : message.text]),
      ).toEqual([
        ["system", ""],
        ["human", "use beta"],
      ]);
      expect(systemText(model, 2)).toBe(`${subCatalog}Loaded skills: none (10 slots free).`);
      // The subagent's load worked, in the subagent only.
      expect(toolMessages(model.calls[3]!.messages)).toEqual([
        {
          name: "load_skill",
          id: "load-b",
          status: undefined,
          text: `<skill name="beta" path="/skills/beta/SKILL.md">\n${skillText("beta")}\n</skill>`,
        },
      ]);
      expect(systemText(model, 3)).toBe(`${subCatalog}Loaded skills (1/10, 9 slots free):\n- beta`);
      // Back in the parent: still only alpha, in the prompt and in the final state.
      expect(systemText(model, 4)).toBe(`${catalog}Loaded skills (1/10, 9 slots free):\n- alpha`);
      expect(toolMessages(result.messages).map(({ name, id, text }) => [name, id, text.slice(0, 20)])).toEqual([
        ["load_skill", "load-a", '<skill name="alpha" '],
        ["task", "task-1", "sub done"],
      ]);
      expect(result.skillsLoaded).toEqual(["alpha"]);
      expect(result.skillResources).toEqual({ alpha: [] });
    });

    it("in the reverse order too: the subagent loads first, then the parent", async () => {
      const model = fakeModel()
        .respondWithTools([
          { name: "task", args: { description: "use beta", subagent_type: "general-purpose" }, id: "task-1" },
        ]) // 0: parent
        .respondWithTools([{ name: "load_skill", args: { skill_name: "beta" }, id: "load-b" }]) // 1: subagent
        .respond(new AIMessage("sub done")) // 2: subagent
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-a" }]) // 3: parent
        .respond(new AIMessage("done")); // 4: parent
      const result = await agentWith(model).invoke({ messages: [USER] });

      expect(model.callCount).toBe(5);
      expect(systemText(model, 1)).toBe(`${subCatalog}Loaded skills: none (10 slots free).`);
      expect(systemText(model, 2)).toBe(`${subCatalog}Loaded skills (1/10, 9 slots free):\n- beta`);
      // beta did not come up: the parent still has nothing loaded after the task, then only alpha.
      expect(systemText(model, 3)).toBe(`${catalog}Loaded skills: none (10 slots free).`);
      expect(systemText(model, 4)).toBe(`${catalog}Loaded skills (1/10, 9 slots free):\n- alpha`);
      expect(result.skillsLoaded).toEqual(["alpha"]);
      expect(Object.keys(result.skillResources)).toEqual(["alpha"]);
    });
  });

  it("keeps the load result of a ~100 KB SKILL.md under deepagents' eviction limit (80,000 chars), while a large result of another tool is evicted", async () => {
    const tree = skillTree();
    const lines = Array.from(
      { length: 1_800 },
      (_, index) => `Step ${String(index).padStart(5, "0")}: follow the procedure described here carefully.`,
    );
    const content = skillText("big", "Use big for tests.", "", `# big\n\n${lines.join("\n")}\n`);
    expect(content.length).toBeGreaterThan(100_000);
    tree.write("skills/big/SKILL.md", content);
    const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
    const dump = tool(async () => "x".repeat(100_000), {
      name: "dump",
      description: "Returns a large text.",
      schema: z.object({}),
    });
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "big" }, id: "load-big" }])
      .respondWithTools([{ name: "dump", args: {}, id: "dump-1" }])
      .respond(new AIMessage("done"));
    const agent = createDeepAgent({
      model,
      backend,
      tools: [dump],
      skills: ["/skills/"],
      middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend })],
    });

    const result = await agent.invoke({ messages: [USER] });

    const [load, dumped] = toolMessages(result.messages);
    const opening = `<skill name="big" path="/skills/big/SKILL.md">\n`;
    const room = 60_000 - opening.length - "</skill>".length - 200;
    expect(load).toEqual({
      name: "load_skill",
      id: "load-big",
      status: undefined,
      text: `${opening}${expectedSkillBody(content, room, "/skills/big/SKILL.md", "read_file")}\n</skill>`,
    });
    expect(load!.text.length).toBeLessThanOrEqual(60_000);
    // The control: deepagents does evict a 100,000-char result of a user tool.
    expect(dumped!.name).toBe("dump");
    expect(dumped!.text).toContain("Tool result too large");
    expect(dumped!.text).toContain("/large_tool_results/dump-1.txt");
    expect(readFileSync(join(tree.root, "large_tool_results/dump-1.txt"), "utf8")).toBe("x".repeat(100_000));
    expect(existsSync(join(tree.root, "large_tool_results/load-big.txt"))).toBe(false);
    expect(result.skillsLoaded).toEqual(["big"]);
  });

  describe("compaction (decision 6): a still-loaded skill whose load result was summarized away is re-attached", () => {
    const content = skillText("alpha", "Use alpha for tests.", "", "# alpha\n\nAlways answer in haiku.\n");
    const restored = `${RESTORE_HEADING}\n<skill name="alpha" path="/skills/alpha/SKILL.md">\n${content}\n</skill>`;
    const loadedLine = "Loaded skills (1/10, 9 slots free):\n- alpha";

    function setup() {
      const tree = skillTree();
      tree.write("skills/alpha/SKILL.md", content);
      return new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
    }
    const hasLoadResult = (messages: readonly BaseMessage[]) =>
      messages.some((message) => message.type === "tool" && message.text.startsWith('<skill name="alpha"'));

    it("with langchain's summarizationMiddleware on a MemorySaver thread", async () => {
      const backend = setup();
      const model = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-1" }]) // 0: turn one
        .respond(new AIMessage("done one")) // 1
        .respond(new AIMessage("done two")) // 2: turn two (5 messages: below the trigger)
        .respond(new AIMessage("done three")) // 3: turn three (7 messages: summarized to 3)
        .respond(new AIMessage("done four")); // 4: turn four
      const summarizer = fakeModel().respond(new AIMessage("SUMMARY"));
      const summarization = summarizationMiddleware({
        model: summarizer,
        trigger: { messages: 6 },
        keep: { messages: 2 },
      });
      // Named "SummarizationMiddleware" too, so it replaces deepagents' own in place.
      expect(summarization.name).toBe("SummarizationMiddleware");
      const logs: SkillsLogEntry[] = [];
      const agent = createDeepAgent({
        model,
        backend,
        checkpointer: new MemorySaver(),
        skills: ["/skills/"],
        middleware: [
          createSkillsMiddleware({ sources: ["/skills/"], backend, logger: (entry) => logs.push(entry) }),
          summarization,
        ],
      });
      const config = { configurable: { thread_id: "compaction" } };
      const states = [];
      for (const text of ["one", "two", "three", "four"])
        states.push(await agent.invoke({ messages: [new HumanMessage(text)] }, config));

      expect(model.callCount).toBe(5);
      expect(summarizer.callCount).toBe(1);
      expect(states.map((state) => state.messages.map((message: BaseMessage) => message.type))).toEqual([
        ["human", "ai", "tool", "ai"],
        ["human", "ai", "tool", "ai", "human", "ai"],
        ["human", "ai", "human", "ai"],
        ["human", "ai", "human", "ai", "human", "ai"],
      ]);
      expect((states[2]!.messages[0] as BaseMessage).text).toBe(
        "Here is a summary of the conversation to date:\n\nSUMMARY",
      );
      // Before the drop: the load result is in the messages and nothing is re-attached.
      for (const index of [1, 2]) {
        expect(hasLoadResult(model.calls[index]!.messages)).toBe(true);
        expectEnd(systemText(model, index), `\n\n${loadedLine}`);
        expect(systemText(model, index)).not.toContain(RESTORE_HEADING);
      }
      // After it: the instructions come back in the system prompt, on every later call.
      for (const index of [3, 4]) {
        expect(hasLoadResult(model.calls[index]!.messages)).toBe(false);
        expectEnd(systemText(model, index), `\n\n${loadedLine}\n\n${restored}`);
      }
      expect(states.map((state) => state.skillsLoaded)).toEqual([["alpha"], ["alpha"], ["alpha"], ["alpha"]]);
      expect(logs.filter((entry) => entry.event === "skill_restored").map((entry) => entry.message)).toEqual([
        "Skill 'alpha' re-attached after its load result left the context",
        "Skill 'alpha' re-attached after its load result left the context",
      ]);
    });

    // deepagents' own summarization (the createDeepAgent default) is a wrapModelCall inside ours
    // that keeps the history in state and records `_summarizationEvent`; the middleware works out
    // the messages the model really gets from that event. Known gap: on the call where
    // summarization first fires (index 4 here) the event does not exist yet when ours runs.
    it("with deepagents' own summarization middleware (the createDeepAgent default, here with a small trigger)", async () => {
      const backend = setup();
      const model = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-1" }]) // 0
        .respond(new AIMessage("done one")) // 1
        .respond(new AIMessage("done two")) // 2
        .respond(new AIMessage("SUMMARY")) // 3: deepagents summarizes with the request's model
        .respond(new AIMessage("done three")) // 4
        .respond(new AIMessage("done four")); // 5
      const summarization = createSummarizationMiddleware({
        backend,
        trigger: { type: "messages", value: 6 },
        keep: { type: "messages", value: 2 },
      });
      const agent = createDeepAgent({
        model,
        backend,
        checkpointer: new MemorySaver(),
        skills: ["/skills/"],
        middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend }), summarization],
      });
      const config = { configurable: { thread_id: "deep-compaction" } };
      for (const text of ["one", "two", "three", "four"])
        await agent.invoke({ messages: [new HumanMessage(text)] }, config);

      expect(model.callCount).toBe(6);
      expect(model.calls[3]!.messages[0]!.text).toContain("You are a conversation summarizer");
      // The model no longer sees the load result ...
      expect(hasLoadResult(model.calls[4]!.messages)).toBe(false);
      expect(hasLoadResult(model.calls[5]!.messages)).toBe(false);
      // ... so from the next call on the skill's instructions are re-attached.
      expectEnd(systemText(model, 5), `\n\n${loadedLine}\n\n${restored}`);
    });
  });

  describe('allowedToolsPolicy: "restrict" end to end', () => {
    function setup() {
      const tree = skillTree();
      tree.write(
        "skills/restricted/SKILL.md",
        skillText("restricted", "Use restricted for tests.", "allowed-tools: my_tool\n"),
      );
      tree.write("skills/restricted/references/notes.md", "NOTES\n");
      const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
      const ran: string[] = [];
      const myTool = tool(async () => (ran.push("my_tool"), "my_tool ran"), {
        name: "my_tool",
        description: "The allowed tool.",
        schema: z.object({}),
      });
      const otherTool = tool(async () => (ran.push("other_tool"), "other_tool ran"), {
        name: "other_tool",
        description: "Another tool.",
        schema: z.object({}),
      });
      const make = (model: FakeModel) =>
        createDeepAgent({
          model,
          backend,
          tools: [myTool, otherTool],
          skills: ["/skills/"],
          middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend, allowedToolsPolicy: "restrict" })],
        });
      return { ran, make };
    }

    it("refuses other tools while the skill is loaded, runs its allowed tool and read_file, and lifts the restriction on unload", async () => {
      const { ran, make } = setup();
      const model = fakeModel()
        .respondWithTools([{ name: "other_tool", args: {}, id: "other-0" }]) // nothing loaded: allowed
        .respondWithTools([{ name: "load_skill", args: { skill_name: "restricted" }, id: "load-1" }])
        .respondWithTools([
          { name: "other_tool", args: {}, id: "other-1" },
          { name: "my_tool", args: {}, id: "mine-1" },
          { name: "read_file", args: { file_path: "/skills/restricted/references/notes.md" }, id: "read-1" },
        ])
        .respondWithTools([{ name: "unload_skill", args: { skill_name: "restricted" }, id: "unload-1" }])
        .respondWithTools([{ name: "other_tool", args: {}, id: "other-2" }]) // unloaded: allowed again
        .respond(new AIMessage("done"));

      const result = await make(model).invoke({ messages: [USER] });

      expect(
        toolMessages(result.messages).map(({ name, id, status, text }) => [
          name,
          id,
          status,
          name === "load_skill" ? text.slice(0, 26) : text,
        ]),
      ).toEqual([
        ["other_tool", "other-0", "success", "other_tool ran"],
        ["load_skill", "load-1", undefined, '<skill name="restricted" p'],
        [
          "other_tool",
          "other-1",
          "error",
          "Error: Tool 'other_tool' is not allowed while the loaded skills (restricted) restrict tools. Allowed: my_tool, and the skill and file-reading tools. Unload a skill with unload_skill to lift its restriction.",
        ],
        ["my_tool", "mine-1", "success", "my_tool ran"],
        ["read_file", "read-1", "success", "@@ lines 1-1 of 1 @@\nNOTES"],
        [
          "unload_skill",
          "unload-1",
          undefined,
          "Skill 'restricted' has been unloaded. Currently loaded: 0/10 (10 slot(s) available). Its instructions from the earlier load_skill call are still in the conversation history, but no longer apply.",
        ],
        ["other_tool", "other-2", "success", "other_tool ran"],
      ]);
      expect(ran).toEqual(["other_tool", "my_tool", "other_tool"]);
      expectEnd(
        systemText(model, 2),
        "\n\nLoaded skills (1/10, 9 slots free):\n- restricted (1 reference; allowed tools: my_tool)\n" +
          "While these skills are loaded, only these tools may be used besides the skill and file-reading tools: my_tool.",
      );
      expect(result.skillsLoaded).toEqual([]);
    });

    it('does not call allowed-tools "recommendations" in the system prompt under "restrict"', async () => {
      const { make } = setup();
      const model = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "restricted" }, id: "load-1" }])
        .respond(new AIMessage("done"));
      await make(model).invoke({ messages: [USER] });
      expect(systemText(model, 1)).toContain("only these tools may be used");
      expect(systemText(model, 1)).not.toContain("are recommendations");
    });
  });
});
