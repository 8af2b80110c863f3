// Tools that come with a skill (`metadata.include_tools` + `skillTools`), through the real
// createAgent loop with scripted fake models: each test asserts on the tools every model call
// was bound with, and on what the tool calls returned.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fakeModel } from "@langchain/core/testing";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { AIMessage, createAgent, tool, ToolMessage, type BaseMessage, type ToolRuntime } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { SkillsLogEntry } from "../../src/index.js";
import { createSkillsMiddleware, type SkillsMiddlewareOptions } from "../../src/langchain.js";
import {
  load,
  scriptedModel,
  skillFile,
  skillTree,
  toolResults,
  unload,
  type ScriptedCall,
  recordBoundTools,
} from "./helpers.js";

// The resumed-thread case runs this over the BUILT package: `npm run build` first.
const WORKER = fileURLToPath(new URL("./fixtures/skill-tools-worker.mjs", import.meta.url));

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

const brings = (tools: string) => `metadata:\n  include_tools: ${tools}\n`;

function library(extra: Record<string, string> = {}): string {
  const tree = skillTree({
    "github/SKILL.md": skillFile("github", "Works with GitHub issues.", brings("list_issues create_issue")),
    "triage/SKILL.md": skillFile("triage", "Triages bug reports.", brings("list_issues label_issue")),
    "plain/SKILL.md": skillFile("plain", "Needs no tools."),
    ...extra,
  });
  trees.push(tree);
  return tree.root;
}

const calls: string[] = [];
function fakeTool(name: string) {
  return tool(
    async () => {
      calls.push(name);
      return `${name} ran`;
    },
    { name, description: `The ${name} tool.`, schema: z.object({}) },
  );
}
const skillTools = () => [fakeTool("list_issues"), fakeTool("create_issue"), fakeTool("label_issue")];
const ownTool = fakeTool("search_web");
const call = (name: string, id: string): ScriptedCall => ({ name, args: {}, id });

async function run(
  steps: Array<ScriptedCall[] | string>,
  options: Partial<SkillsMiddlewareOptions> = {},
  input: Record<string, unknown> = {},
) {
  calls.length = 0;
  const model = scriptedModel(steps);
  const bound = recordBoundTools(model);
  const events: SkillsLogEntry[] = [];
  const middleware = createSkillsMiddleware({
    sources: [library()],
    skillTools: skillTools(),
    logger: (entry) => events.push(entry),
    ...options,
  });
  const agent = createAgent({ model, tools: [ownTool], middleware: [middleware], checkpointer: new MemorySaver() });
  const result = await agent.invoke(
    { messages: [{ role: "user", content: "Go" }], ...input },
    { configurable: { thread_id: "t" } },
  );
  return { bound, model, events, result, results: toolResults(result.messages as BaseMessage[]) };
}

const BASE = ["search_web", "load_skill", "unload_skill", "read_skill_resource"];
const TOOLS_NOTE = "\n\nTools this skill brings, offered from your next step: list_issues, create_issue.";
const UNDISCLOSED = (name: string) =>
  `Error: ${name} is not a valid tool here. Call only the tools you were given in this step; a skill's tools are offered from the step after the skill is loaded.`;

describe("skill tools: hidden until loaded, withdrawn on unload", () => {
  it("offers a skill's tools from the call after load_skill, after the agent's own tools, and withdraws them after unload", async () => {
    const { bound, results, result } = await run([
      [load("github", "l1")],
      [call("list_issues", "c1")],
      [unload("github", "u1")],
      "bye",
    ]);
    expect(bound).toEqual([
      BASE,
      [...BASE, "list_issues", "create_issue"],
      [...BASE, "list_issues", "create_issue"],
      BASE,
    ]);
    expect(results.get("l1")!.content.endsWith(TOOLS_NOTE)).toBe(true);
    expect(results.get("c1")).toEqual({ content: "list_issues ran", status: "success" });
    expect(calls).toEqual(["list_issues"]);
    expect(result.skillsLoaded).toEqual([]);
  });

  it("refuses a premature call, and a call in the same message as the load, as an unknown tool; the run goes on", async () => {
    const { bound, results } = await run([
      [call("create_issue", "early")],
      [load("github", "l1"), call("list_issues", "same")],
      [call("list_issues", "c1")],
    ]);
    expect(results.get("early")).toEqual({ content: UNDISCLOSED("create_issue"), status: "error" });
    expect(results.get("same")).toEqual({ content: UNDISCLOSED("list_issues"), status: "error" });
    expect(results.get("c1")).toEqual({ content: "list_issues ran", status: "success" });
    expect(calls).toEqual(["list_issues"]);
    expect(bound.map((names) => names.length)).toEqual([4, 4, 6, 6]);
  });

  it("keeps a tool two loaded skills bring until both are unloaded; load order decides the order", async () => {
    const { bound } = await run([
      [load("github", "l1")],
      [load("triage", "l2")],
      [unload("github", "u1")],
      [unload("triage", "u2")],
    ]);
    expect(bound).toEqual([
      BASE,
      [...BASE, "list_issues", "create_issue"],
      [...BASE, "list_issues", "create_issue", "label_issue"],
      [...BASE, "list_issues", "label_issue"],
      BASE,
    ]);
  });

  it("discloses the tools of parallel loads together, in the order of the calls", async () => {
    const { bound, results } = await run([[load("triage", "l2"), load("plain", "l3"), load("github", "l1")]]);
    expect(bound[1]).toEqual([...BASE, "list_issues", "label_issue", "create_issue"]);
    expect(results.get("l3")!.content.includes("Tools this skill brings")).toBe(false);
  });

  it("changes only the end of the tools list: the schemas before the skill tools are byte-identical", async () => {
    const model = scriptedModel([[load("github", "l1")], [unload("github", "u1")]]);
    const schemas: string[][] = [];
    const bindTools = model.bindTools.bind(model);
    model.bindTools = (tools, ...rest) => {
      schemas.push(
        (tools as Array<{ name: string; description: string; schema: unknown }>).map((entry) =>
          JSON.stringify([entry.name, entry.description, z.toJSONSchema(entry.schema as z.ZodType)]),
        ),
      );
      return bindTools(tools, ...rest);
    };
    const agent = createAgent({
      model,
      tools: [ownTool],
      middleware: [createSkillsMiddleware({ sources: [library()], skillTools: skillTools() })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "Go" }] });
    expect(schemas[1]!.slice(0, 4)).toEqual(schemas[0]);
    expect(schemas[2]).toEqual(schemas[0]);
  });

  it("counts a loaded skill's own tools as allowed under allowed-tools restriction", async () => {
    const root = library({
      "strict/SKILL.md": skillFile("strict", "Only reads.", `allowed-tools: Read\n${brings("list_issues")}`),
    });
    const model = scriptedModel([[load("strict", "l1")], [call("list_issues", "c1"), call("search_web", "c2")]]);
    const agent = createAgent({
      model,
      tools: [ownTool],
      middleware: [
        createSkillsMiddleware({ sources: [root], skillTools: skillTools(), allowedToolsPolicy: "restrict" }),
      ],
    });
    const results = toolResults((await agent.invoke({ messages: [{ role: "user", content: "Go" }] })).messages);
    expect(results.get("c1")).toEqual({ content: "list_issues ran", status: "success" });
    expect(results.get("c2")!.status).toBe("error");
    expect(results.get("c2")!.content).toMatch(
      /^Error: Tool 'search_web' is not allowed while the loaded skills \(strict\) restrict tools\./,
    );
  });
});

describe("supplying skill tools", () => {
  it("calls a resolver once per skill and thread, and offers its tools as the array form would", async () => {
    const asked: string[] = [];
    const resolver = (skill: string) => {
      asked.push(skill);
      return skill === "github" ? [fakeTool("list_issues"), fakeTool("create_issue")] : [];
    };
    const model = scriptedModel([
      [load("github", "l1")],
      [call("list_issues", "c1")],
      "turn one",
      [call("create_issue", "c2")],
      "turn two",
      [load("github", "l3")],
    ]);
    const bound = recordBoundTools(model);
    const agent = createAgent({
      model,
      tools: [ownTool],
      middleware: [createSkillsMiddleware({ sources: [library()], skillTools: resolver })],
      checkpointer: new MemorySaver(),
    });
    const first = await agent.invoke(
      { messages: [{ role: "user", content: "Go" }] },
      { configurable: { thread_id: "a" } },
    );
    await agent.invoke({ messages: [{ role: "user", content: "Again" }] }, { configurable: { thread_id: "a" } });
    expect(asked).toEqual(["github"]);
    expect(toolResults(first.messages).get("c1")).toEqual({ content: "list_issues ran", status: "success" });
    expect(bound.slice(0, 5)).toEqual([
      BASE,
      [...BASE, "list_issues", "create_issue"],
      [...BASE, "list_issues", "create_issue"],
      [...BASE, "list_issues", "create_issue"],
      [...BASE, "list_issues", "create_issue"],
    ]);
    await agent.invoke({ messages: [{ role: "user", content: "Other thread" }] }, { configurable: { thread_id: "b" } });
    expect(asked).toEqual(["github", "github"]);
  });

  it("refuses clashing names at construction: two tools of one name, or a skills middleware tool's name", () => {
    expect(() => createSkillsMiddleware({ sources: ["/tmp"], skillTools: [fakeTool("x"), fakeTool("x")] })).toThrow(
      "createSkillsMiddleware: skillTools: two tools are named 'x'",
    );
    expect(() => createSkillsMiddleware({ sources: ["/tmp"], skillTools: [fakeTool("load_skill")] })).toThrow(
      "createSkillsMiddleware: skillTools: 'load_skill' is the name of a skills middleware tool",
    );
    expect(() => createSkillsMiddleware({ sources: ["/tmp"], skillTools: [], protocol: "text" })).toThrow(
      'skillTools needs protocol: "tools"',
    );
  });

  it("refuses a skill tool with the name of one of the agent's tools at the first model call", async () => {
    const model = scriptedModel([]);
    const agent = createAgent({
      model,
      tools: [fakeTool("list_issues")],
      middleware: [createSkillsMiddleware({ sources: [library()], skillTools: skillTools() })],
    });
    await expect(agent.invoke({ messages: [{ role: "user", content: "Go" }] })).rejects.toThrow(
      "createSkillsMiddleware: skillTools: 'list_issues' is also one of the agent's own tools; rename one of them",
    );
  });

  it("makes a resolver's clashing tool a load_skill error naming it; the skill is not loaded", async () => {
    const model = scriptedModel([[load("github", "l1")]]);
    const agent = createAgent({
      model,
      tools: [fakeTool("create_issue")],
      middleware: [createSkillsMiddleware({ sources: [library()], skillTools: () => [fakeTool("create_issue")] })],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "Go" }] });
    expect(toolResults(result.messages).get("l1")).toEqual({
      content:
        "Error: Skill 'github' cannot be used in this agent: The tool 'create_issue' that skill 'github' brings has the name of one of the agent's own tools; rename one of them.",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual([]);
  });

  it("loads a skill whose tool nobody supplies, says so in the load result, and logs it once", async () => {
    const { bound, results, events } = await run(
      [[load("github", "l1")], [unload("github", "u1")], [load("github", "l2")]],
      { skillTools: [fakeTool("list_issues")] },
    );
    const note =
      "\n\nTools this skill brings, offered from your next step: list_issues. Not available in this agent (nobody supplies them): create_issue; do the task without them.";
    expect(results.get("l1")!.content.endsWith(note)).toBe(true);
    expect(results.get("l2")!.content.endsWith(note)).toBe(true);
    expect(bound[1]).toEqual([...BASE, "list_issues"]);
    expect(events.filter((entry) => entry.event === "skill_tools_unavailable")).toEqual([
      {
        level: "warn",
        event: "skill_tools_unavailable",
        message: "Skill 'github' names tools nobody supplies: create_issue",
        skill: "github",
        tools: ["create_issue"],
      },
    ]);
  });
});

describe("skills the application pins", () => {
  it("invokes pinned skills from invoke's input as /name args would: instructions, arguments, tools from the first call, key cleared", async () => {
    const root = library({
      "report/SKILL.md": skillFile("report", "Writes a report.", "argument-hint: [topic]\n", "Report on $ARGUMENTS."),
    });
    const model = scriptedModel([[call("list_issues", "c1")], "first turn"]);
    const bound = recordBoundTools(model);
    const events: SkillsLogEntry[] = [];
    const agent = createAgent({
      model,
      tools: [ownTool],
      middleware: [
        createSkillsMiddleware({ sources: [root], skillTools: skillTools(), logger: (entry) => events.push(entry) }),
      ],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "p" } };
    const result = await agent.invoke(
      {
        messages: [{ role: "user", content: "Go" }],
        pinnedSkills: ["github", { name: "report", arguments: "Q3 sales" }],
      },
      config,
    );

    expect(bound[0]).toEqual([...BASE, "list_issues", "create_issue"]);
    expect(toolResults(result.messages).get("c1")).toEqual({ content: "list_issues ran", status: "success" });
    expect(result.skillsLoaded).toEqual(["github", "report"]);
    expect(result.pinnedSkills).toEqual([]);
    const pinned = (result.messages as BaseMessage[]).filter(
      (message) => message.additional_kwargs.skillset_pinned !== undefined,
    );
    expect(pinned.map((message) => [message.type, message.additional_kwargs.skillset_pinned])).toEqual([
      ["human", { skill: "github", arguments: "" }],
      ["human", { skill: "report", arguments: "Q3 sales" }],
    ]);
    expect(String(pinned[0]!.content).endsWith(TOOLS_NOTE)).toBe(true);
    expect(String(pinned[1]!.content)).toContain("Report on Q3 sales.");
    expect(
      events.filter((entry) => entry.event === "skill_invoked").map((entry) => [entry.skill, entry.arguments]),
    ).toEqual([
      ["github", ""],
      ["report", "Q3 sales"],
    ]);
    // Read once: the next turn does not invoke them again.
    const again = await agent.invoke({ messages: [{ role: "user", content: "More" }] }, config);
    expect(
      (again.messages as BaseMessage[]).filter((message) => message.additional_kwargs.skillset_pinned !== undefined),
    ).toHaveLength(2);
  });

  it("answers an unknown or user-invocable: false pin with a message the model reads and an event, never dropping it", async () => {
    const root = library({ "internal/SKILL.md": skillFile("internal", "Model only.", "user-invocable: false\n") });
    const model = scriptedModel([]);
    const events: SkillsLogEntry[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [root], logger: (entry) => events.push(entry) })],
    });
    const result = await agent.invoke({
      messages: [{ role: "user", content: "Go" }],
      pinnedSkills: ["nope", "internal"],
    });
    const seen = model.calls[0]!.messages.slice(-2).map((message) => message.content);
    expect(seen).toEqual([
      "[skillset: the application pinned the skill 'nope', which could not be invoked. Error: No skill named 'nope' that the application may invoke (it is not in the catalog, or it is user-invocable: false).]",
      "[skillset: the application pinned the skill 'internal', which could not be invoked. Error: No skill named 'internal' that the application may invoke (it is not in the catalog, or it is user-invocable: false).]",
    ]);
    expect(result.skillsLoaded).toEqual([]);
    expect(
      events.filter((entry) => entry.event === "skill_refused").map((entry) => [entry.skill, entry.reason]),
    ).toEqual([
      ["nope", "pinned-unknown"],
      ["internal", "pinned-unknown"],
    ]);
  });

  it("invokes skills a tool pins with a Command before the next model call", async () => {
    const pinTool = tool(
      async (_input, runtime: ToolRuntime) =>
        new Command({
          update: {
            pinnedSkills: ["github"],
            messages: [new ToolMessage({ content: "pinned", tool_call_id: runtime.toolCallId })],
          },
        }),
      { name: "start_issue_work", description: "Starts work on issues.", schema: z.object({}) },
    );
    const model = scriptedModel([[call("start_issue_work", "s1")], [call("create_issue", "c1")]]);
    const bound = recordBoundTools(model);
    const agent = createAgent({
      model,
      tools: [pinTool],
      middleware: [createSkillsMiddleware({ sources: [library()], skillTools: skillTools() })],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "Go" }] });
    const base = ["start_issue_work", "load_skill", "unload_skill", "read_skill_resource"];
    expect(bound).toEqual([base, [...base, "list_issues", "create_issue"], [...base, "list_issues", "create_issue"]]);
    expect(model.calls[1]!.messages.map((message) => message.type)).toEqual(["system", "human", "ai", "tool", "human"]);
    expect(toolResults(result.messages).get("c1")).toEqual({ content: "create_issue ran", status: "success" });
    expect(result.skillsLoaded).toEqual(["github"]);
    expect(result.pinnedSkills).toEqual([]);
  });
});

describe("skill tools across processes and agents", () => {
  it("offers a loaded skill's tools to a thread resumed in another process (SQLite checkpointer)", async () => {
    const root = library();
    const file = join(mkdtempSync(join(tmpdir(), "skillset-tools-")), "threads.sqlite");
    trees.push({ cleanup: () => rmSync(dirname(file), { recursive: true, force: true }) });
    const turn = (steps: unknown[]) => {
      const out = execFileSync(
        process.execPath,
        [WORKER, JSON.stringify({ file, threadId: "r", sources: [root], steps })],
        { encoding: "utf8" },
      );
      return JSON.parse(out) as { pid: number; bound: string[][]; loaded: string[]; results: string[][] };
    };
    const first = turn([[load("github", "l1")], "loaded"]);
    const second = turn([[call("create_issue", "c1")], [unload("github", "u1")]]);
    const base = ["load_skill", "unload_skill", "read_skill_resource"];
    expect(second.pid).not.toBe(first.pid);
    expect(first.bound).toEqual([base, [...base, "list_issues", "create_issue"]]);
    expect(second.bound).toEqual([
      [...base, "list_issues", "create_issue"],
      [...base, "list_issues", "create_issue"],
      base,
    ]);
    expect(second.results.slice(-2)).toEqual([
      ["c1", "success", "create_issue ran"],
      ["u1", "success", "Skill 'github' has been unloaded. Curren"],
    ]);
    expect(second.loaded).toEqual([]);
  });

  it("discloses a subagent's loads in that subagent only (createDeepAgent, general-purpose subagent)", async () => {
    const backend = new FilesystemBackend({ rootDir: library(), virtualMode: true });
    const model = fakeModel()
      .respondWithTools([
        { name: "task", args: { description: "list the issues", subagent_type: "general-purpose" }, id: "task-1" },
      ]) // 0: parent
      .respondWithTools([{ name: "load_skill", args: { skill_name: "github" }, id: "load-g" }]) // 1: subagent
      .respondWithTools([{ name: "list_issues", args: {}, id: "sub-c1" }]) // 2: subagent
      .respond(new AIMessage("sub done")) // 3: subagent
      .respondWithTools([{ name: "list_issues", args: {}, id: "parent-c1" }]) // 4: parent
      .respond(new AIMessage("done")); // 5: parent
    const bound: string[][] = [];
    const bindTools = model.bindTools.bind(model);
    model.bindTools = (tools, ...rest) => {
      bound.push((tools as Array<{ name: string }>).map((entry) => entry.name));
      return bindTools(tools, ...rest);
    };
    // `skills` makes deepagents give the subagent its skills middleware, which ours replaces by name.
    const agent = createDeepAgent({
      model,
      backend,
      skills: ["/"],
      middleware: [createSkillsMiddleware({ sources: ["/"], backend, skillTools: skillTools() })],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "Go" }] });
    const skillToolsOf = (names: string[]) =>
      names.filter((name) => ["list_issues", "create_issue", "label_issue"].includes(name));
    expect(bound.map(skillToolsOf)).toEqual([
      [],
      [],
      ["list_issues", "create_issue"],
      ["list_issues", "create_issue"],
      [],
      [],
    ]);
    const results = toolResults(result.messages as BaseMessage[]);
    expect(results.get("parent-c1")).toEqual({ content: UNDISCLOSED("list_issues"), status: "error" });
    expect(result.skillsLoaded).toEqual([]);
  });
});
