import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RemoveMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { FilesystemBackend, createDeepAgent } from "deepagents";
import { HumanMessage, createAgent, type BaseMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalExecutor, createLocalSource } from "../../src/node.js";
import { createSkillsMiddleware, type SkillsLogEntry } from "../../src/langchain.js";
import { createCatalog, listInvocableSkills } from "../../src/index.js";
import {
  type ScriptedCall,
  load,
  runAgent,
  scriptedModel,
  skillFile,
  skillTree,
  systemPromptOf,
  toolResults,
} from "./helpers.js";

// User invocation (`/name args`), arguments and dynamic context through the real agent loop.

const trees: Array<{ root: string; cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function tree(files: Record<string, string>) {
  const made = skillTree(files);
  trees.push(made);
  return made;
}

const REVIEW = skillFile(
  "review-pr",
  "Review a pull request.",
  "argument-hint: '[pr-number] [priority]'\narguments: [pr, priority]\n",
  "Review PR $pr with priority $priority.\nAll: $ARGUMENTS\nFirst: $0, third: $ARGUMENTS[2].\nFolder: ${CLAUDE_SKILL_DIR}\nSession: ${CLAUDE_SESSION_ID}",
);

/** The text of the `index`-th message the model got on its `call`-th call. */
function messageText(model: ReturnType<typeof scriptedModel>, call: number, index: number): string {
  return model.calls[call]!.messages[index]!.text;
}

describe("/name args in a user's message", () => {
  it("gives the model the rendered skill in place of the command, and counts the skill as loaded", async () => {
    const { root } = tree({ "review-pr/SKILL.md": REVIEW, "review-pr/references/checklist.md": "# Checklist" });
    const model = scriptedModel([]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model,
      input: '/review-pr 42 "very high" extra',
      threadId: "t-42",
    });
    const file = join(root, "review-pr", "SKILL.md");
    const seen = messageText(model, 0, 1);
    expect(seen).toBe(
      `<skill name="review-pr" path="${file}">\n` +
        "---\nname: review-pr\ndescription: Review a pull request.\nargument-hint: '[pr-number] [priority]'\narguments: [pr, priority]\n---\n\n" +
        `Review PR 42 with priority very high.\nAll: 42 "very high" extra\nFirst: 42, third: extra.\nFolder: ${join(root, "review-pr")}\nSession: t-42\n\n` +
        `</skill>\n<skill_resources base="${join(root, "review-pr")}">\n- [reference] references/checklist.md\n</skill_resources>\n` +
        `Paths above are relative to ${join(root, "review-pr")}; read them with \`read_skill_resource\` when the instructions call for them.\n` +
        'The user invoked this skill: /review-pr 42 "very high" extra\nFollow its instructions now.',
    );
    expect(result.skillsLoaded).toEqual(["review-pr"]);
    expect(result.skillResources["review-pr"]!.map((resource) => resource.relativePath)).toEqual([
      "references/checklist.md",
    ]);
    // The stored message keeps its id and says what the user typed, for UIs.
    const stored = result.messages[0]!;
    expect(stored.type).toBe("human");
    expect(stored.text).toBe(seen);
    expect(stored.additional_kwargs.skillset_command).toEqual({
      text: '/review-pr 42 "very high" extra',
      skill: "review-pr",
      arguments: '42 "very high" extra',
    });
    expect(systemPromptOf(model, 0)).toContain("Loaded skills (1/10, 9 slots free):\n- review-pr (1 reference)");
  });

  it("appends ARGUMENTS when the instructions use no argument placeholder", async () => {
    const { root } = tree({ "fmt/SKILL.md": skillFile("fmt", "Format code.", "", "Format the files.") });
    const model = scriptedModel([]);
    await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model,
      input: "/fmt src/a.ts src/b.ts",
    });
    expect(messageText(model, 0, 1)).toContain("Format the files.\n\nARGUMENTS: src/a.ts src/b.ts\n</skill>");
  });

  it("passes through what is not a command for a skill the user may invoke", async () => {
    const { root } = tree({
      "review-pr/SKILL.md": REVIEW,
      "internal/SKILL.md": skillFile("internal", "Internal steps.", "user-invocable: false\n"),
    });
    for (const input of [
      "/etc/hosts is broken",
      "/unknown 1 2",
      "/internal now",
      "/review-pr/x",
      "please /review-pr 1",
      "/",
    ]) {
      const model = scriptedModel([]);
      const { result } = await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model, input });
      expect(messageText(model, 0, 1)).toBe(input);
      expect(result.skillsLoaded).toEqual([]);
    }
  });

  it("is off with userInvocation: false", async () => {
    const { root } = tree({ "review-pr/SKILL.md": REVIEW });
    const model = scriptedModel([]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], userInvocation: false })],
      model,
      input: "/review-pr 1",
    });
    expect(messageText(model, 0, 1)).toBe("/review-pr 1");
    expect(result.skillsLoaded).toEqual([]);
  });

  it("invokes a skill only the user may invoke (disable-model-invocation), which the model's catalog does not show", async () => {
    const { root } = tree({
      "deploy/SKILL.md": skillFile(
        "deploy",
        "Deploy to production.",
        "disable-model-invocation: true\n",
        "Deploy $ARGUMENTS now.",
      ),
      "plain/SKILL.md": skillFile("plain"),
    });
    const model = scriptedModel([]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model,
      input: "/deploy staging",
    });
    expect(messageText(model, 0, 1)).toContain("Deploy staging now.");
    expect(systemPromptOf(model, 0)).not.toContain("- deploy:");
    expect(systemPromptOf(model, 0)).toContain("- plain: ");
    expect(result.skillsLoaded).toEqual(["deploy"]);
  });

  it("lets the model load a skill the user may not invoke (user-invocable: false)", async () => {
    const { root } = tree({ "internal/SKILL.md": skillFile("internal", "Internal steps.", "user-invocable: false\n") });
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("internal")]]),
    });
    expect(result.skillsLoaded).toEqual(["internal"]);
  });

  it("frees the least recently loaded slot when every slot is taken, and tells the model", async () => {
    const { root } = tree({
      "a/SKILL.md": skillFile("a"),
      "b/SKILL.md": skillFile("b"),
      "fmt/SKILL.md": skillFile("fmt"),
    });
    const checkpointer = new MemorySaver();
    const middleware = [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 2 })];
    await runAgent({ middleware, model: scriptedModel([[load("a")], [load("b")]]), checkpointer });
    const model = scriptedModel([]);
    const { result } = await runAgent({ middleware, model, checkpointer, input: "/fmt" });
    expect(messageText(model, 0, messages(model, 0).length - 1)).toMatch(
      /\nThe user invoked this skill: \/fmt\nFollow its instructions now\.\n\(Skill 'a' was unloaded to make room: at most 2 skills can be loaded at once\.\)$/,
    );
    expect(result.skillsLoaded).toEqual(["b", "fmt"]);
  });

  it("re-renders an already loaded skill with the new arguments, without taking another slot", async () => {
    const { root } = tree({ "review-pr/SKILL.md": REVIEW });
    const checkpointer = new MemorySaver();
    const middleware = [createSkillsMiddleware({ sources: [root] })];
    await runAgent({ middleware, model: scriptedModel([]), checkpointer, input: "/review-pr 1 low" });
    const model = scriptedModel([]);
    const { result } = await runAgent({ middleware, model, checkpointer, input: "/review-pr 2 high" });
    expect(messageText(model, 0, 3)).toContain("Review PR 2 with priority high.");
    expect(messageText(model, 0, 1)).toContain("Review PR 1 with priority low.");
    expect(result.skillsLoaded).toEqual(["review-pr"]);
  });

  it("works on a thread resumed from a SQLite checkpointer by a new agent", async () => {
    const { root } = tree({ "review-pr/SKILL.md": REVIEW, "plain/SKILL.md": skillFile("plain") });
    const folder = mkdtempSync(join(tmpdir(), "skillset-sqlite-"));
    trees.push({ root: folder, cleanup: () => rmSync(folder, { recursive: true, force: true }) });
    const file = join(folder, "threads.db");
    const config = { configurable: { thread_id: "resumed" } };
    const first = createAgent({
      model: scriptedModel([[load("plain")]]),
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [root] })],
      checkpointer: SqliteSaver.fromConnString(file),
    });
    await first.invoke({ messages: [{ role: "user", content: "start" }] }, config);
    const model = scriptedModel([]);
    const second = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [root] })],
      checkpointer: SqliteSaver.fromConnString(file),
    });
    const result = (await second.invoke({ messages: [{ role: "user", content: "/review-pr 7 p1" }] }, config)) as {
      skillsLoaded: string[];
    };
    expect(result.skillsLoaded).toEqual(["plain", "review-pr"]);
    expect(messages(model, 0).at(-1)!.text).toContain("Review PR 7 with priority p1.\n");
    expect(messages(model, 0).at(-1)!.text).toContain("Session: resumed\n");
  });

  it("re-attaches an invoked skill whose message left the context", async () => {
    const { root } = tree({ "fmt/SKILL.md": skillFile("fmt", "Format code.", "", "Format the files.") });
    const checkpointer = new MemorySaver();
    const middleware = [createSkillsMiddleware({ sources: [root] })];
    const { agent, config, result } = await runAgent({
      middleware,
      model: scriptedModel([]),
      checkpointer,
      input: "/fmt",
    });
    // Replace the invocation message as a summarization would.
    await agent.updateState(config, {
      messages: [
        new RemoveMessage({ id: result.messages[0]!.id! }),
        new HumanMessage("Summary: the user asked to format code."),
      ],
    });
    const model = scriptedModel([]);
    await runAgent({ middleware, model, checkpointer, input: "go on" });
    expect(systemPromptOf(model, 0)).toContain(
      `<skill name="fmt" path="${join(root, "fmt", "SKILL.md")}">\n---\nname: fmt`,
    );
  });

  it("reports the invocation as a structured event and a custom stream event", async () => {
    const { root } = tree({ "fmt/SKILL.md": skillFile("fmt") });
    const entries: SkillsLogEntry[] = [];
    const agent = createAgent({
      model: scriptedModel([]),
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [root], logger: (entry) => entries.push(entry) })],
    });
    const custom: unknown[] = [];
    for await (const [mode, chunk] of await agent.stream(
      { messages: [{ role: "user", content: "/fmt a b" }] },
      { streamMode: ["custom", "values"] },
    )) {
      if (mode === "custom") custom.push(chunk);
    }
    expect(entries.find((entry) => entry.event === "skill_invoked")).toMatchObject({
      level: "info",
      skill: "fmt",
      arguments: "a b",
    });
    expect(custom).toContainEqual(expect.objectContaining({ type: "skillset", event: "skill_invoked", skill: "fmt" }));
  });

  it("works under createDeepAgent", async () => {
    const { root } = tree({ "skills/review-pr/SKILL.md": REVIEW });
    const backend = new FilesystemBackend({ rootDir: root, virtualMode: true });
    const model = scriptedModel([]);
    const agent = createDeepAgent({
      model,
      backend,
      skills: ["/skills/"],
      middleware: [createSkillsMiddleware({ sources: ["/skills/"], backend })],
    });
    const result = (await agent.invoke({ messages: [{ role: "user", content: "/review-pr 9 low" }] })) as {
      skillsLoaded: string[];
    };
    expect(result.skillsLoaded).toEqual(["review-pr"]);
    expect(messages(model, 0).at(-1)!.text).toContain('<skill name="review-pr" path="/skills/review-pr/SKILL.md">');
    expect(messages(model, 0).at(-1)!.text).toContain("Review PR 9 with priority low.");
  });
});

describe("arguments through load_skill", () => {
  const withArgs = (skill: string, args: string, id: string): ScriptedCall => ({
    name: "load_skill",
    args: { skill_name: skill, arguments: args },
    id,
  });

  it("substitutes the model's arguments, also for parallel loads in one message", async () => {
    const { root } = tree({
      "review-pr/SKILL.md": REVIEW,
      "fmt/SKILL.md": skillFile("fmt", "Format code.", "", "Format $0."),
    });
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 2 })],
      model: scriptedModel([
        [withArgs("review-pr", "5 urgent", "c1"), withArgs("fmt", "'my file.ts'", "c2"), load("other", "c3")],
      ]),
    });
    const results = toolResults(result.messages);
    expect(results.get("c1")!.content).toContain("Review PR 5 with priority urgent.");
    expect(results.get("c2")!.content).toContain("Format my file.ts.");
    expect(results.get("c3")!.status).toBe("error");
    expect(result.skillsLoaded).toEqual(["review-pr", "fmt"]);
  });

  it("leaves `$1` alone in a skill that takes no arguments and got none", async () => {
    const { root } = tree({
      "awk/SKILL.md": skillFile("awk", "Columns.", "", "Run awk '{print $1}' on it; costs $5."),
    });
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("awk")]]),
    });
    expect(toolResults(result.messages).get("load-awk")!.content).toContain("Run awk '{print $1}' on it; costs $5.");
  });

  it("shows the argument hint in the model's catalog, and offers user-invocable skills for a / menu", async () => {
    const { root } = tree({
      "review-pr/SKILL.md": REVIEW,
      "internal/SKILL.md": skillFile("internal", "Internal steps.", "user-invocable: false\n"),
    });
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    expect(systemPromptOf(model, 0)).toContain(
      "- review-pr (arguments: [pr-number] [priority]): Review a pull request.\n",
    );
    const catalog = createCatalog([createLocalSource({ path: root })]);
    expect(listInvocableSkills((await catalog.refresh()).skills)).toEqual([
      { name: "review-pr", description: "Review a pull request.", argumentHint: "[pr-number] [priority]" },
    ]);
  });
});

describe("dynamic context", () => {
  const STATUS = skillFile("status", "Repo status.", "allowed-tools: echo\n", "Status: !`echo all good`\nDone.");

  it("is not run unless the integrator opts in, and the text says so", async () => {
    const { root } = tree({ "status/SKILL.md": STATUS });
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model, input: "/status" });
    const text = messageText(model, 0, 1);
    expect(text).not.toContain("all good\n");
    expect(text).toMatch(/Status: \[[^\]]*`echo all good`[^\]]*off[^\]]*\]\nDone\./);
  });

  it("runs allowed commands with an executor, on invocation and on load", async () => {
    const { root } = tree({ "status/SKILL.md": STATUS });
    const middleware = [
      createSkillsMiddleware({
        sources: [root],
        dynamicContext: { executor: createLocalExecutor({ timeoutMs: 10_000 }) },
      }),
    ];
    const model = scriptedModel([]);
    await runAgent({ middleware, model, input: "/status" });
    expect(messageText(model, 0, 1)).toContain("Status: all good\nDone.");
    const { result } = await runAgent({ middleware, model: scriptedModel([[load("status")]]) });
    expect(toolResults(result.messages).get("load-status")!.content).toContain("Status: all good\nDone.");
  });

  it("refuses a command the skill's allow-list does not permit, and runs nothing", async () => {
    const { root } = tree({
      "sneaky/SKILL.md": skillFile("sneaky", "Sneaky.", "allowed-tools: echo\n", "Here: !`touch pwned`"),
    });
    const model = scriptedModel([]);
    await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], dynamicContext: { executor: createLocalExecutor() } })],
      model,
      input: "/sneaky",
    });
    expect(messageText(model, 0, 1)).toMatch(/Here: \[[^\]]*`touch pwned`[^\]]*not allowed[^\]]*\]/);
    expect(existsSync(join(root, "sneaky", "pwned"))).toBe(false);
  });

  it("never runs what arrives in arguments", async () => {
    const { root } = tree({
      "echo/SKILL.md": skillFile("echo", "Echo.", "allowed-tools: echo touch\n", "Say $ARGUMENTS"),
    });
    const model = scriptedModel([]);
    await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], dynamicContext: { executor: createLocalExecutor() } })],
      model,
      input: "/echo !`touch pwned` $ARGUMENTS ${CLAUDE_SKILL_DIR}",
    });
    expect(messageText(model, 0, 1)).toContain("Say !`touch pwned` $ARGUMENTS ${CLAUDE_SKILL_DIR}\n");
    expect(existsSync(join(root, "echo", "pwned"))).toBe(false);
  });
});

function messages(model: ReturnType<typeof scriptedModel>, call: number): BaseMessage[] {
  return model.calls[call]!.messages;
}
