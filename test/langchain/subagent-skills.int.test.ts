import type { BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { AIMessage, createAgent, HumanMessage, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkillsMiddleware, type SkillsLogEntry } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";
import { systemPromptOf, type SkillsAgentState } from "./helpers.js";

// `subagentSkills`: a deepagents `task` subagent (and any agent a tool starts with the tool's
// config) begins with the parent's loaded skills under "inherit", and with none under "isolated".

type Tree = ReturnType<typeof tempTree>;
const trees: Tree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function skillText(name: string, extra = "", body = `# ${name}\n\nInstructions of ${name}.\n`): string {
  return `---\nname: ${name}\ndescription: Use ${name} for tests.\n${extra}---\n\n${body}`;
}

function library(): { backend: FilesystemBackend; root: string } {
  const tree = tempTree("skillset-subagent-");
  trees.push(tree);
  tree.write(
    "skills/alpha/SKILL.md",
    skillText("alpha", "argument-hint: <topic>\n", "# alpha\n\nWork on $ARGUMENTS.\n"),
  );
  tree.write("skills/alpha/references/guide.md", "GUIDE\n");
  tree.write("skills/beta/SKILL.md", skillText("beta"));
  return { backend: new FilesystemBackend({ rootDir: tree.root, virtualMode: true }), root: tree.root };
}

const ALPHA_LOADED =
  '<skill name="alpha" path="/skills/alpha/SKILL.md">\n' +
  skillText("alpha", "argument-hint: <topic>\n", "# alpha\n\nWork on the parser.\n");
const INHERITED_NOTE = "(The agent that gave you this task had this skill loaded; it is loaded here too.)";

function texts(messages: readonly BaseMessage[]): Array<[string, string]> {
  return messages.map((message) => [message.type, message.type === "system" ? "" : message.text]);
}

describe("subagentSkills under createDeepAgent's task tool", () => {
  function deepAgent(
    model: ReturnType<typeof fakeModel>,
    subagentSkills: "inherit" | "isolated" | undefined,
    events: SkillsLogEntry[] = [],
  ) {
    const { backend } = library();
    const middleware = createSkillsMiddleware({
      sources: ["/skills/"],
      backend,
      logger: (entry) => events.push(entry),
      ...(subagentSkills ? { subagentSkills } : {}),
    });
    return createDeepAgent({
      model,
      backend,
      skills: ["/skills/"],
      middleware: [middleware],
      checkpointer: new MemorySaver(),
    });
  }

  it("\"inherit\": the subagent starts with the parent's skill as the parent's model read it (arguments filled), with its resources; its own loads and unloads stay below", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha", arguments: "the parser" }, id: "load-a" }]) // 0: parent
      .respondWithTools([
        { name: "task", args: { description: "use alpha", subagent_type: "general-purpose" }, id: "task-1" },
      ]) // 1: parent
      .respondWithTools([
        { name: "load_skill", args: { skill_name: "beta" }, id: "load-b" },
        { name: "unload_skill", args: { skill_name: "alpha" }, id: "unload-a" },
      ]) // 2: subagent
      .respond(new AIMessage("sub done")) // 3: subagent
      .respond(new AIMessage("done")); // 4: parent
    const events: SkillsLogEntry[] = [];
    const result = (await deepAgent(model, "inherit", events).invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "inherit-1" } },
    )) as SkillsAgentState;

    expect(model.callCount).toBe(5);
    expect(texts(model.calls[2]!.messages)).toEqual([
      ["system", ""],
      ["human", "use alpha"],
      [
        "human",
        `${ALPHA_LOADED}\n</skill>\n<skill_resources base="/skills/alpha">\n- [reference] references/guide.md\n</skill_resources>\nPaths above are relative to /skills/alpha; read them with \`read_file\` when the instructions call for them.\n${INHERITED_NOTE}`,
      ],
    ]);
    // Loaded, with the parent's resources, and not re-attached a second time in the prompt.
    expect(systemPromptOf(model, 2)).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- alpha \(1 reference\)$/);
    expect(systemPromptOf(model, 3)).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- beta$/);
    // Back in the parent: alpha only, as before the task.
    expect(systemPromptOf(model, 4)).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- alpha \(1 reference\)$/);
    expect(result.skillsLoaded).toEqual(["alpha"]);
    expect(Object.keys(result.skillResources)).toEqual(["alpha"]);
    expect(events.filter((entry) => entry.event === "skills_inherited").map((entry) => entry.skills)).toEqual([
      ["alpha"],
    ]);
  });

  it('"isolated" (the default): the subagent starts with nothing loaded', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-a" }])
      .respondWithTools([
        { name: "task", args: { description: "use alpha", subagent_type: "general-purpose" }, id: "task-1" },
      ])
      .respond(new AIMessage("sub done"))
      .respond(new AIMessage("done"));
    await deepAgent(model, undefined).invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "isolated-1" } },
    );

    expect(texts(model.calls[2]!.messages)).toEqual([
      ["system", ""],
      ["human", "use alpha"],
    ]);
    expect(systemPromptOf(model, 2)).toMatch(/Loaded skills: none \(10 slots free\)\.$/);
  });

  it('"inherit" with nothing loaded hands nothing down', async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "task", args: { description: "work", subagent_type: "general-purpose" }, id: "task-1" },
      ])
      .respond(new AIMessage("sub done"))
      .respond(new AIMessage("done"));
    await deepAgent(model, "inherit").invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "inherit-empty" } },
    );
    expect(texts(model.calls[1]!.messages)).toEqual([
      ["system", ""],
      ["human", "work"],
    ]);
  });
});

describe("subagentSkills with agents that tools start", () => {
  // A tool that runs another agent on the tool's config, as deepagents' task does.
  function delegateTo(agent: { invoke: (...args: never[]) => Promise<unknown> }, name = "delegate") {
    const invoke = agent.invoke.bind(agent) as (input: unknown, config: unknown) => Promise<unknown>;
    return tool(
      async ({ task }: { task: string }, config) => {
        const result = (await invoke({ messages: [new HumanMessage(task)] }, config)) as SkillsAgentState;
        return `${result.messages.at(-1)!.text} [loaded: ${result.skillsLoaded.join(", ") || "none"}]`;
      },
      { name, description: "Delegates a task.", schema: z.object({ task: z.string() }) },
    );
  }

  it("only the agent a call starts inherits: an agent that agent starts does not, under an isolated middleware", async () => {
    const { root } = library();
    const sources = [`${root}/skills`];
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "beta" }, id: "load-b" }]) // 0: parent
      .respondWithTools([{ name: "delegate", args: { task: "child task" }, id: "d-1" }]) // 1: parent
      .respondWithTools([{ name: "delegate_again", args: { task: "grandchild task" }, id: "d-2" }]) // 2: child
      .respond(new AIMessage("grandchild done")) // 3: grandchild
      .respond(new AIMessage("child done")) // 4: child
      .respond(new AIMessage("done")); // 5: parent
    const grandchild = createAgent({ model, tools: [], middleware: [createSkillsMiddleware({ sources })] });
    const child = createAgent({
      model,
      tools: [delegateTo(grandchild, "delegate_again")],
      middleware: [createSkillsMiddleware({ sources })],
    });
    const parent = createAgent({
      model,
      tools: [delegateTo(child)],
      middleware: [createSkillsMiddleware({ sources, subagentSkills: "inherit" })],
    });

    const result = (await parent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "nested" } },
    )) as SkillsAgentState;

    expect(systemPromptOf(model, 2)).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- beta$/);
    expect(systemPromptOf(model, 3)).toMatch(/Loaded skills: none \(10 slots free\)\.$/);
    const toolTexts = result.messages.filter((message) => message.type === "tool").map((message) => message.text);
    expect(toolTexts.at(-1)).toBe("child done [loaded: beta]");
    expect(result.skillsLoaded).toEqual(["beta"]);
  });

  it("a skill the subagent's catalog lacks stays behind, with a skill_not_inherited event", async () => {
    const { root } = library();
    const events: SkillsLogEntry[] = [];
    const model = fakeModel()
      .respondWithTools([
        { name: "load_skill", args: { skill_name: "alpha", arguments: "x" }, id: "load-a" },
        { name: "load_skill", args: { skill_name: "beta" }, id: "load-b" },
      ])
      .respondWithTools([{ name: "delegate", args: { task: "child task" }, id: "d-1" }])
      .respond(new AIMessage("child done"))
      .respond(new AIMessage("done"));
    const onlyBeta = tempTree("skillset-subagent-beta-");
    trees.push(onlyBeta);
    onlyBeta.write("beta/SKILL.md", skillText("beta"));
    const child = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [onlyBeta.root], logger: (entry) => events.push(entry) })],
    });
    const parent = createAgent({
      model,
      tools: [delegateTo(child)],
      middleware: [createSkillsMiddleware({ sources: [`${root}/skills`], subagentSkills: "inherit" })],
    });

    await parent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "lacks" } });

    expect(systemPromptOf(model, 2)).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- beta$/);
    expect(
      events
        .filter((entry) => entry.event === "skill_not_inherited")
        .map(({ skill, reason, message }) => ({ skill, reason, message })),
    ).toEqual([
      {
        skill: "alpha",
        reason: "not-in-catalog",
        message: "Skill 'alpha' of the parent agent not inherited: it is not in this agent's catalog",
      },
    ]);
  });
});
