import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { AIMessage, createAgent, HumanMessage, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkillsMiddleware, type SkillsMiddlewareOptions } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";
import { recordBoundTools, skillFile, skillTree, type SkillsAgentState } from "./helpers.js";

// `context: fork`: the skill runs in a fresh agent with its instructions as the task; the parent
// gets only the fork's answer. The parent and the fork run on different fake models, so each
// assertion shows which model answered which call.

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

const RESEARCH = skillFile(
  "research",
  "Research a topic with lookup.",
  "context: fork\nmodel: fast\nargument-hint: <topic>\nallowed-tools: lookup\n",
  "# research\n\nResearch $ARGUMENTS with lookup, then answer in one line.",
);
const FORK_NOTE =
  "You run this skill as a forked agent: carry out its instructions now, then answer with the result; your last message is all the agent that started you receives.";

function library(files: Record<string, string> = {}) {
  const tree = skillTree({ "research/SKILL.md": RESEARCH, "plain/SKILL.md": skillFile("plain"), ...files });
  trees.push(tree);
  return tree.root;
}

function toolsFor(seen: string[]) {
  const lookup = tool(
    async ({ q }: { q: string }) => {
      seen.push(`lookup:${q}`);
      return `facts about ${q}`;
    },
    { name: "lookup", description: "Looks a topic up.", schema: z.object({ q: z.string() }) },
  );
  const writeNote = tool(async () => "written", {
    name: "write_note",
    description: "Writes a note.",
    schema: z.object({}),
  });
  return [lookup, writeNote];
}

function agentWith(
  parent: ReturnType<typeof fakeModel>,
  options: Partial<SkillsMiddlewareOptions>,
  seen: string[] = [],
) {
  const middleware = createSkillsMiddleware({ sources: [library()], ...options });
  return createAgent({
    model: parent,
    tools: toolsFor(seen),
    middleware: [middleware],
    checkpointer: new MemorySaver(),
  });
}

const config = (thread: string) => ({ configurable: { thread_id: thread } });

// The agent's model: loads research for "tides", then finishes.
function parentLoadingResearch() {
  return fakeModel()
    .respondWithTools([{ name: "load_skill", args: { skill_name: "research", arguments: "tides" }, id: "load-r" }])
    .respond(new AIMessage("parent done"));
}

// The skill's model, in the fork: looks tides up, then answers.
function forkLookingUpTides() {
  return fakeModel()
    .respondWithTools([{ name: "lookup", args: { q: "tides" }, id: "look-1" }])
    .respond(new AIMessage("Tides follow the moon."));
}

// The fake model echoes its input as the text of a tool-calling message: only answers' texts count.
function texts(messages: readonly BaseMessage[]): Array<[string, string]> {
  return messages.map((message) => [
    message.type,
    message.type === "system" || (message.type === "ai" && ((message as AIMessage).tool_calls?.length ?? 0) > 0)
      ? ""
      : message.text,
  ]);
}

describe("context: fork through load_skill", () => {
  it("runs the skill in a fresh agent on its model, with its arguments, only its allowed tools and the skill loaded; the parent gets only the answer and no slot is taken", async () => {
    const parent = parentLoadingResearch();
    const fast = forkLookingUpTides();
    const bound = recordBoundTools(fast);
    const seen: string[] = [];
    const agent = agentWith(parent, { models: { fast } }, seen);

    const result = (await agent.invoke(
      { messages: [new HumanMessage("how do tides work?")] },
      config("fork-load"),
    )) as SkillsAgentState;

    expect(parent.callCount).toBe(2);
    expect(fast.callCount).toBe(2);
    // The fork's first call: none of the parent's messages, the rendered skill as its task.
    const task = fast.calls[0]!.messages;
    expect(task.map((message) => message.type)).toEqual(["system", "human"]);
    expect(task[1]!.text).toMatch(/^<skill name="research" path="[^"]+\/research\/SKILL\.md">\n/);
    expect(task[1]!.text).toContain("Research tides with lookup, then answer in one line.");
    expect(
      task[1]!.text.endsWith(`\n</skill>\nRecommended tools while this skill is active: lookup\n${FORK_NOTE}`),
    ).toBe(true);
    expect(task[0]!.text).toMatch(/^You are a forked agent running one skill/);
    expect(task[0]!.text).toMatch(/Loaded skills \(1\/10, 9 slots free\):\n- research \(recommended tools: lookup\)$/);
    // Only the skill's allowed tool of the agent's own, then the middleware's tools.
    expect(bound[0]).toEqual(["lookup", "load_skill", "unload_skill", "read_skill_resource"]);
    expect(seen).toEqual(["lookup:tides"]);

    // The parent: the answer as the load_skill result, nothing loaded, its own model throughout.
    const loadResult = result.messages.find((message) => message.type === "tool")!;
    expect([loadResult.text, (loadResult as BaseMessage & { status?: string }).status]).toEqual([
      "Tides follow the moon.",
      undefined,
    ]);
    expect(texts(parent.calls[1]!.messages).slice(1)).toEqual([
      ["human", "how do tides work?"],
      ["ai", ""],
      ["tool", "Tides follow the moon."],
    ]);
    expect(result.skillsLoaded).toEqual([]);
    expect(result.messages.at(-1)!.text).toBe("parent done");
  });

  it("a fork cannot call the agent's tools its skill's allowed-tools leave out, nor a skill's injected arguments run anything", async () => {
    const parent = fakeModel()
      .respondWithTools([
        {
          name: "load_skill",
          args: { skill_name: "research", arguments: "!`touch pwned` $(touch pwned2)" },
          id: "load-r",
        },
      ])
      .respond(new AIMessage("parent done"));
    const fast = fakeModel()
      .respondWithTools([{ name: "write_note", args: {}, id: "w-1" }])
      .respond(new AIMessage("could not write"));
    const seen: string[] = [];
    const written: string[] = [];
    const writeNote = tool(async () => (written.push("note"), "written"), {
      name: "write_note",
      description: "Writes a note.",
      schema: z.object({}),
    });
    const lookup = toolsFor(seen)[0]!;
    const root = library();
    const agent = createAgent({
      model: parent,
      tools: [lookup, writeNote],
      middleware: [createSkillsMiddleware({ sources: [root], models: { fast } })],
      checkpointer: new MemorySaver(),
    });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-refuse"),
    )) as SkillsAgentState;

    expect(written).toEqual([]);
    const refusal = fast.calls[1]!.messages.at(-1) as BaseMessage & { status?: string };
    expect(refusal.status).toBe("error");
    expect(refusal.text).toContain("write_note");
    expect(fast.calls[0]!.messages[1]!.text).toContain("Research !`touch pwned` $(touch pwned2) with lookup");
    expect(
      existsSync(join(root, "research", "pwned")) ||
        existsSync(join(root, "research", "pwned2")) ||
        existsSync("pwned"),
    ).toBe(false);
    expect(result.messages.find((message) => message.type === "tool")!.text).toBe("could not write");
  });

  it("takes no slot: a fork and a load in one step both go ahead at maxLoadedSkills 1; an inheriting parent's skills stay out of the fork", async () => {
    const parent = fakeModel()
      .respondWithTools([
        { name: "load_skill", args: { skill_name: "research", arguments: "tides" }, id: "load-r" },
        { name: "load_skill", args: { skill_name: "plain" }, id: "load-p" },
      ])
      .respondWithTools([{ name: "load_skill", args: { skill_name: "research", arguments: "waves" }, id: "load-r2" }])
      .respond(new AIMessage("parent done"));
    const fast = fakeModel()
      .respond(new AIMessage("Tides follow the moon."))
      .respond(new AIMessage("Waves follow the wind."));
    const agent = agentWith(parent, { models: { fast }, maxLoadedSkills: 1, subagentSkills: "inherit" });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-slots"),
    )) as SkillsAgentState;

    const results = Object.fromEntries(
      result.messages
        .filter((message) => message.type === "tool")
        .map((message) => [
          (message as BaseMessage & { tool_call_id: string }).tool_call_id,
          message.text.slice(0, 22),
        ]),
    );
    expect(results).toEqual({
      "load-r": "Tides follow the moon.",
      "load-p": '<skill name="plain" pa',
      "load-r2": "Waves follow the wind.",
    });
    expect(result.skillsLoaded).toEqual(["plain"]);
    // The second fork ran while the parent had plain loaded: the fork has only its own skill.
    expect(fast.calls[1]!.messages.map((message) => message.type)).toEqual(["system", "human"]);
    expect(fast.calls[1]!.messages[0]!.text).toMatch(
      /Loaded skills \(1\/1, 0 slots free\):\n- research \(recommended tools: lookup\)$/,
    );
  });

  it("sends the fork's progress to the custom stream", async () => {
    const parent = parentLoadingResearch();
    const fast = forkLookingUpTides();
    const agent = agentWith(parent, { models: { fast } });

    const events: Array<Record<string, unknown>> = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("go")] },
      { ...config("fork-stream"), streamMode: "custom" },
    ))
      events.push(chunk as Record<string, unknown>);

    expect(
      events
        .filter((event) => String(event.event).startsWith("fork_"))
        .map(({ event, skill, step, toolCalls, ok }) => ({ event, skill, step, toolCalls, ok })),
    ).toEqual([
      { event: "fork_started", skill: "research", step: undefined, toolCalls: undefined, ok: undefined },
      { event: "fork_step", skill: "research", step: 1, toolCalls: ["lookup"], ok: undefined },
      { event: "fork_step", skill: "research", step: 2, toolCalls: [], ok: undefined },
      { event: "fork_finished", skill: "research", step: undefined, toolCalls: undefined, ok: true },
    ]);
    expect(events.every((event) => event.type === "skillset")).toBe(true);
  });

  it("stops a fork at its step limit and reports it as the result; the parent goes on", async () => {
    const parent = parentLoadingResearch();
    let fast = fakeModel();
    for (let index = 0; index < 5; index++)
      fast = fast.respondWithTools([{ name: "lookup", args: { q: `t${index}` }, id: `look-${index}` }]);
    const seen: string[] = [];
    const agent = agentWith(parent, { models: { fast }, forkLimits: { maxSteps: 2 } }, seen);

    const result = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-limit"),
    )) as SkillsAgentState;

    // Two model calls, and the tools of both; then the fork ends before a third.
    expect(fast.callCount).toBe(2);
    expect(seen).toEqual(["lookup:t0", "lookup:t1"]);
    const loadResult = result.messages.find((message) => message.type === "tool") as BaseMessage & { status?: string };
    expect([loadResult.text, loadResult.status]).toEqual([
      "Error: Skill 'research' ran in a forked agent that was stopped after 2 model calls (its limit) before it answered.",
      "error",
    ]);
    expect(result.messages.at(-1)!.text).toBe("parent done");
  });

  it("reports a fork that fails as the result", async () => {
    const parent = parentLoadingResearch();
    const fast = fakeModel().respond(new Error("provider down"));
    const result = (await agentWith(parent, { models: { fast } }).invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-fail"),
    )) as SkillsAgentState;

    const loadResult = result.messages.find((message) => message.type === "tool") as BaseMessage & { status?: string };
    expect(loadResult.status).toBe("error");
    expect(loadResult.text).toMatch(/^Error: Skill 'research' ran in a forked agent that failed: .*provider down/);
    expect(result.messages.at(-1)!.text).toBe("parent done");
  });

  it("refuses a fork inside a fork (maxDepth 1) with a result the model can act on", async () => {
    const root = library({
      "outer/SKILL.md": skillFile("outer", "Outer.", "context: fork\n", "# outer\n\nLoad inner."),
      "inner/SKILL.md": skillFile("inner", "Inner.", "context: fork\n"),
    });
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "outer" }, id: "load-o" }]) // parent
      .respondWithTools([{ name: "load_skill", args: { skill_name: "inner" }, id: "load-i" }]) // fork of outer
      .respond(new AIMessage("outer could not nest")) // fork of outer
      .respond(new AIMessage("parent done")); // parent
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [root] })],
      checkpointer: new MemorySaver(),
    });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-nest"),
    )) as SkillsAgentState;

    expect(model.callCount).toBe(4);
    const nested = model.calls[2]!.messages.at(-1) as BaseMessage & { status?: string };
    expect([nested.text, nested.status]).toEqual([
      "Error: Skill 'inner' runs in a forked agent, and this agent is a fork already (forks nest at most 1 deep). Do the task without that skill.",
      "error",
    ]);
    expect(result.messages.find((message) => message.type === "tool")!.text).toBe("outer could not nest");
  });

  it("runs `agent:` in the agent type forkAgents names, with that type's model, prompt and tools; an unknown type is refused naming the types there are", async () => {
    const root = library({
      "review/SKILL.md": skillFile("review", "Review.", "context: fork\nagent: reviewer\n"),
      "ghost/SKILL.md": skillFile("ghost", "Ghost.", "context: fork\nagent: nobody\n"),
    });
    const parent = fakeModel()
      .respondWithTools([
        { name: "load_skill", args: { skill_name: "review" }, id: "load-review" },
        { name: "load_skill", args: { skill_name: "ghost" }, id: "load-ghost" },
      ])
      .respond(new AIMessage("parent done"));
    const reviewerModel = fakeModel().respond(new AIMessage("Looks good."));
    const bound = recordBoundTools(reviewerModel);
    const check = tool(async () => "ok", { name: "check", description: "Checks.", schema: z.object({}) });
    const middleware = createSkillsMiddleware({
      sources: [root],
      forkAgents: [{ name: "reviewer", model: reviewerModel, tools: [check], systemPrompt: "You are the reviewer." }],
    });
    const agent = createAgent({
      model: parent,
      tools: toolsFor([]),
      middleware: [middleware],
      checkpointer: new MemorySaver(),
    });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-agents"),
    )) as SkillsAgentState;

    expect(reviewerModel.callCount).toBe(1);
    expect(reviewerModel.calls[0]!.messages[0]!.text).toMatch(/^You are the reviewer\.\n\n/);
    expect(bound[0]).toEqual(["check", "load_skill", "unload_skill", "read_skill_resource"]);
    const results = Object.fromEntries(
      result.messages
        .filter((message) => message.type === "tool")
        .map((message) => [(message as BaseMessage & { tool_call_id: string }).tool_call_id, message.text]),
    );
    expect(results).toEqual({
      "load-review": "Looks good.",
      "load-ghost":
        "Error: Skill 'ghost' runs in a forked agent, which could not start: it names the agent 'nobody', which this agent does not have (agent types: general-purpose, reviewer).",
    });
    expect(parent.callCount).toBe(2);
  });

  it("forkAgents: false loads a context: fork skill like any other", async () => {
    const parent = parentLoadingResearch();
    const result = (await agentWith(parent, { forkAgents: false }).invoke(
      { messages: [new HumanMessage("go")] },
      config("fork-off"),
    )) as SkillsAgentState;
    expect(result.skillsLoaded).toEqual(["research"]);
    expect(result.messages.find((message) => message.type === "tool")!.text).toMatch(/^<skill name="research"/);
  });
});

describe("context: fork through a user's /name", () => {
  it("answers the user with the fork's answer; the parent's model is not called and nothing is loaded", async () => {
    const parent = fakeModel().respond(new AIMessage("parent should not answer"));
    const fast = fakeModel().respond(new AIMessage("Tides follow the moon."));
    const agent = agentWith(parent, { models: { fast } });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("/research tides")] },
      config("fork-user"),
    )) as SkillsAgentState;

    expect(parent.callCount).toBe(0);
    expect(fast.callCount).toBe(1);
    expect(fast.calls[0]!.messages[1]!.text).toContain("Research tides with lookup");
    expect(
      fast.calls[0]!.messages[1]!.text.endsWith(`The user invoked this skill: /research tides\n${FORK_NOTE}`),
    ).toBe(true);
    expect(texts(result.messages)).toEqual([
      ["human", "/research tides"],
      ["ai", "Tides follow the moon."],
    ]);
    expect(result.skillsLoaded).toEqual([]);

    // The next turn goes to the parent's model, which sees the question and the fork's answer.
    await agent.invoke({ messages: [new HumanMessage("thanks")] }, config("fork-user"));
    expect(parent.callCount).toBe(1);
    expect(fast.callCount).toBe(1);
    expect(texts(parent.calls[0]!.messages).slice(1)).toEqual([
      ["human", "/research tides"],
      ["ai", "Tides follow the moon."],
      ["human", "thanks"],
    ]);
  });

  it("with more in the turn than the command, the parent's model answers with the fork's answer in the message, which the state keeps", async () => {
    const parent = fakeModel().respond(new AIMessage("Summary for you.")).respond(new AIMessage("again"));
    const fast = fakeModel().respond(new AIMessage("Tides follow the moon."));
    const agent = agentWith(parent, { models: { fast } });

    const result = (await agent.invoke(
      { messages: [new HumanMessage("/research tides"), new HumanMessage("then summarise")] },
      config("fork-mixed"),
    )) as SkillsAgentState;

    const answered =
      "/research tides\n\n[skillset: /research ran in a forked agent. Its answer:]\nTides follow the moon.";
    expect(texts(parent.calls[0]!.messages).slice(1)).toEqual([
      ["human", answered],
      ["human", "then summarise"],
    ]);
    expect(texts(result.messages)).toEqual([
      ["human", answered],
      ["human", "then summarise"],
      ["ai", "Summary for you."],
    ]);
    expect(fast.callCount).toBe(1);
  });
});

describe("context: fork under createDeepAgent", () => {
  function deepLibrary() {
    const tree = tempTree("skillset-fork-deep-");
    trees.push(tree);
    tree.write(
      "skills/survey/SKILL.md",
      skillFile("survey", "Survey the notes.", "context: fork\n", "# survey\n\nRead /notes.txt and report."),
    );
    tree.write(
      "skills/audit/SKILL.md",
      skillFile("audit", "Audit.", "context: fork\nagent: auditor\n", "# audit\n\nAudit it."),
    );
    tree.write("notes.txt", "NOTE ONE\n");
    return new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
  }

  it("a skill without agent: runs with the deep agent's own tools (read_file here); agent: names one of its subagents", async () => {
    const backend = deepLibrary();
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "survey" }, id: "load-s" }]) // 0: parent
      .respondWithTools([{ name: "read_file", args: { file_path: "/notes.txt" }, id: "read-1" }]) // 1: fork of survey
      .respond(new AIMessage("The notes say NOTE ONE.")) // 2: fork of survey
      .respondWithTools([{ name: "load_skill", args: { skill_name: "audit" }, id: "load-a" }]) // 3: parent
      .respond(new AIMessage("parent done")); // 4: parent
    const auditorModel = fakeModel().respond(new AIMessage("Audit passed."));
    const subagents = [
      { name: "auditor", description: "Audits things.", systemPrompt: "You audit.", model: auditorModel, tools: [] },
    ];
    const agent = createDeepAgent({
      model,
      backend,
      subagents,
      skills: ["/skills/"],
      middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend, forkAgents: subagents })],
    });

    const result = (await agent.invoke({ messages: [new HumanMessage("go")] })) as SkillsAgentState;

    expect(model.callCount).toBe(5);
    expect(auditorModel.callCount).toBe(1);
    expect(auditorModel.calls[0]!.messages[0]!.text).toMatch(/^You audit\.\n\n/);
    expect(model.calls[2]!.messages.at(-1)!.text).toContain("NOTE ONE");
    const results = Object.fromEntries(
      result.messages
        .filter((message) => message.type === "tool")
        .map((message) => [(message as BaseMessage & { tool_call_id: string }).tool_call_id, message.text]),
    );
    expect(results).toEqual({ "load-s": "The notes say NOTE ONE.", "load-a": "Audit passed." });
    expect(result.skillsLoaded).toEqual([]);
  });
});
