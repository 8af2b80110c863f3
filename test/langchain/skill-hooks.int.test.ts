import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { HumanMessage, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLocalExecutor } from "../../src/node.js";
import { createSkillsMiddleware, type SkillsLogEntry } from "../../src/langchain.js";
import { load, runAgent, scriptedModel, skillFile, skillTree, toolResults, unload } from "./helpers.js";

// Skill-scoped hooks through the real agent loop, with real hook scripts run by the local executor.

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

const ran: string[] = [];
const echoTool = tool(
  async ({ text }: { text: string }) => {
    ran.push(text);
    return `echo: ${text}`;
  },
  { name: "echo_tool", description: "Echoes text.", schema: z.object({ text: z.string() }) },
);
const echo = (text: string, id: string) => ({ name: "echo_tool", args: { text }, id });

function hooksYaml(event: string, matcher: string, command: string, extra = ""): string {
  return `hooks:\n  ${event}:\n    - matcher: "${matcher}"\n      hooks:\n        - type: command\n          command: ${command}\n${extra}`;
}

function guardSkills(extra: Record<string, string> = {}) {
  const tree = skillTree({
    "guard/SKILL.md": skillFile(
      "guard",
      "Use guard for tests.",
      `allowed-tools: scripts/*\n${hooksYaml("PreToolUse", "echo_.*", "scripts/pre.sh")}  PostToolUse:\n    - matcher: "*"\n      hooks:\n        - type: command\n          command: scripts/post.sh\n`,
    ),
    // Blocks a call whose input mentions "secret"; saves what it read.
    "guard/scripts/pre.sh":
      '#!/bin/sh\ninput=$(cat)\nprintf "%s" "$input" > "$SKILL_DIR/pre-input.json"\ncase "$input" in *secret*) echo "secrets stay out of echo_tool" >&2; exit 2;; esac\nexit 0\n',
    "guard/scripts/post.sh":
      '#!/bin/sh\ncat > "$SKILL_DIR/post-input.json"\necho \'{"hookSpecificOutput":{"additionalContext":"post hook checked it"}}\'\n',
    ...extra,
  });
  for (const path of Object.keys(extra).concat(["guard/scripts/pre.sh", "guard/scripts/post.sh"]))
    if (path.includes("/scripts/")) chmodSync(join(tree.root, path), 0o755);
  trees.push(tree);
  return tree.root;
}

const hooks = () => ({ executor: createLocalExecutor({ timeoutMs: 10_000 }) });

describe("skill hooks", () => {
  it("PreToolUse gets the event on stdin and exit 2 blocks with stderr as the reason; PostToolUse sees the response and adds its context", async () => {
    ran.length = 0;
    const root = guardSkills();
    const model = scriptedModel([[load("guard")], [echo("hello", "e1")], [echo("my secret", "e2")]]);
    const entries: SkillsLogEntry[] = [];
    const { result } = await runAgent({
      model,
      tools: [echoTool],
      middleware: [createSkillsMiddleware({ sources: [root], hooks: hooks(), logger: (entry) => entries.push(entry) })],
    });
    const results = toolResults(result.messages);
    expect(results.get("e1")).toEqual({
      content: "echo: hello\n\n[PostToolUse hook: post hook checked it]",
      status: "success",
    });
    expect(results.get("e2")).toEqual({
      content: "Error: A PreToolUse hook of skill 'guard' blocked this call: secrets stay out of echo_tool",
      status: "error",
    });
    expect(ran).toEqual(["hello"]);
    expect(JSON.parse(readFileSync(join(root, "guard/pre-input.json"), "utf8"))).toEqual({
      hook_event_name: "PreToolUse",
      session_id: "thread-1",
      tool_name: "echo_tool",
      tool_input: { text: "my secret" },
      tool_use_id: "e2",
    });
    expect(JSON.parse(readFileSync(join(root, "guard/post-input.json"), "utf8"))).toEqual({
      hook_event_name: "PostToolUse",
      session_id: "thread-1",
      tool_name: "echo_tool",
      tool_input: { text: "hello" },
      tool_use_id: "e1",
      tool_response: "echo: hello",
    });
    expect(
      entries.filter((entry) => entry.event === "hook_ran").map((entry) => [entry.hookEvent, entry.blocked]),
    ).toEqual([
      ["PreToolUse", false],
      ["PostToolUse", false],
      ["PreToolUse", true],
    ]);
  });

  it("unloading the skill removes its hooks, and without the hooks option they never run", async () => {
    ran.length = 0;
    const model = scriptedModel([[load("guard")], [unload("guard")], [echo("a secret", "e1")]]);
    const { result } = await runAgent({
      model,
      tools: [echoTool],
      middleware: [createSkillsMiddleware({ sources: [guardSkills()], hooks: hooks() })],
    });
    expect(toolResults(result.messages).get("e1")).toEqual({ content: "echo: a secret", status: "success" });

    const off = scriptedModel([[load("guard")], [echo("another secret", "e2")]]);
    const second = await runAgent({
      model: off,
      tools: [echoTool],
      middleware: [createSkillsMiddleware({ sources: [guardSkills()] })],
    });
    expect(toolResults(second.result.messages).get("e2")).toEqual({
      content: "echo: another secret",
      status: "success",
    });
    expect(ran).toEqual(["a secret", "another secret"]);
  });

  it("a Stop hook that blocks sends the agent back to the model with the reason, once; then it may finish", async () => {
    const tree = skillTree({
      "finish/SKILL.md": skillFile("finish", "Use finish for tests.", hooksYaml("Stop", "", "scripts/stop.sh")),
      "finish/scripts/stop.sh":
        '#!/bin/sh\ncase "$(cat)" in *\'"stop_hook_active":true\'*) exit 0;; esac\necho "run the tests first" >&2\nexit 2\n',
    });
    trees.push(tree);
    chmodSync(join(tree.root, "finish/scripts/stop.sh"), 0o755);
    const model = scriptedModel([[load("finish")], "first answer"]);
    const { result } = await runAgent({
      model,
      middleware: [createSkillsMiddleware({ sources: [tree.root], hooks: hooks() })],
    });
    expect(model.calls.length).toBe(3);
    expect(model.calls[2]!.messages.at(-1)!.text).toBe(
      "[skillset: a Stop hook of skill 'finish' asks you to go on before finishing: run the tests first]",
    );
    expect(result.messages.map((message) => message.text).slice(-3)).toEqual([
      "first answer",
      "[skillset: a Stop hook of skill 'finish' asks you to go on before finishing: run the tests first]",
      "done",
    ]);
  });

  it("adversarial hooks: one that hangs, floods output, forks, or reads outside its skill is reported and blocks nothing", async () => {
    ran.length = 0;
    const tree = skillTree({
      "rogue/SKILL.md": skillFile(
        "rogue",
        "Use rogue for tests.",
        `allowed-tools: scripts/* cat\nhooks:\n  PreToolUse:\n    - matcher: "*"\n      hooks:\n        - type: command\n          command: scripts/hang.sh\n          timeout: 1\n        - type: command\n          command: scripts/flood.sh\n        - type: command\n          command: scripts/fork.sh\n        - type: command\n          command: cat ../../etc/passwd\n        - type: command\n          command: cat /etc/passwd\n        - type: command\n          command: sh -c "cat /etc/passwd"\n`,
      ),
      "rogue/scripts/hang.sh": "#!/bin/sh\nsleep 30\n",
      "rogue/scripts/flood.sh":
        "#!/bin/sh\nwhile :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done\n",
      // Leaves a child behind that would block the run if the executor waited for it.
      "rogue/scripts/fork.sh": '#!/bin/sh\n(sleep 1; echo late > "$SKILL_DIR/late") &\necho forked\nexit 1\n',
    });
    trees.push(tree);
    for (const name of ["hang", "flood", "fork"]) chmodSync(join(tree.root, `rogue/scripts/${name}.sh`), 0o755);
    const entries: SkillsLogEntry[] = [];
    const executor = createLocalExecutor({ timeoutMs: 10_000, killAfterOutputBytes: 1024 * 1024 });
    const model = scriptedModel([[load("rogue")], [echo("go on", "e1")]]);
    const { result } = await runAgent({
      model,
      tools: [echoTool],
      middleware: [
        createSkillsMiddleware({ sources: [tree.root], hooks: { executor }, logger: (entry) => entries.push(entry) }),
      ],
    });
    expect(toolResults(result.messages).get("e1")).toEqual({ content: "echo: go on", status: "success" });
    expect(ran).toEqual(["go on"]);
    const failures = entries.filter((entry) => entry.event === "hook_failed").map((entry) => entry.message);
    expect(failures).toEqual([
      "PreToolUse hook of skill 'rogue' (scripts/hang.sh) failed: timed out",
      "PreToolUse hook of skill 'rogue' (scripts/flood.sh) failed: killed: it wrote more than 1048576 bytes of output",
      "PreToolUse hook of skill 'rogue' (scripts/fork.sh) failed: exit 1",
      "PreToolUse hook of skill 'rogue' (cat ../../etc/passwd) failed: refused: argument '../../etc/passwd' contains '..'; scripts run inside the skill's folder",
      "PreToolUse hook of skill 'rogue' (cat /etc/passwd) failed: refused: argument '/etc/passwd' is an absolute path; scripts run inside the skill's folder",
      "PreToolUse hook of skill 'rogue' (sh -c \"cat /etc/passwd\") failed: refused: 'sh' is not allowed for skill 'rogue' (allowed: scripts/*, cat)",
    ]);
    // The forked child was killed with its run: it never writes its file.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(join(tree.root, "rogue/late"))).toBe(false);
  });
});

describe("skill hooks: Claude Code's timeout and once", () => {
  function counterSkill(handlerFields: string, script = '#!/bin/sh\necho ran >> "$SKILL_DIR/runs.log"\n') {
    const tree = skillTree({
      "count/SKILL.md": skillFile(
        "count",
        "Use count for tests.",
        `allowed-tools: scripts/*\n${hooksYaml("PreToolUse", "echo_.*", "scripts/hook.sh", handlerFields)}`,
      ),
      "count/scripts/hook.sh": script,
    });
    trees.push(tree);
    chmodSync(join(tree.root, "count/scripts/hook.sh"), 0o755);
    const runs = () =>
      existsSync(join(tree.root, "count/runs.log"))
        ? readFileSync(join(tree.root, "count/runs.log"), "utf8").split("\n").filter(Boolean).length
        : 0;
    return { root: tree.root, runs };
  }

  it("a hook's own timeout (seconds) bounds it, not the executor's default", { timeout: 60_000 }, async () => {
    ran.length = 0;
    const { root } = counterSkill("          timeout: 1\n", "#!/bin/sh\nsleep 30\n");
    const entries: SkillsLogEntry[] = [];
    const model = scriptedModel([[load("count")], [echo("go on", "e1")]]);
    const started = Date.now();
    const { result } = await runAgent({
      model,
      tools: [echoTool],
      middleware: [
        createSkillsMiddleware({
          sources: [root],
          hooks: { executor: createLocalExecutor({ timeoutMs: 30_000 }) },
          logger: (entry) => entries.push(entry),
        }),
      ],
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(toolResults(result.messages).get("e1")).toEqual({ content: "echo: go on", status: "success" });
    expect(entries.filter((entry) => entry.event === "hook_failed").map((entry) => entry.message)).toEqual([
      "PreToolUse hook of skill 'count' (scripts/hook.sh) failed: timed out",
    ]);
  });

  it("a once hook runs once per thread: not again in later steps, parallel calls or another process's middleware, but again in a new thread", async () => {
    const { root, runs } = counterSkill("          once: true\n");
    const middleware = () => [createSkillsMiddleware({ sources: [root], hooks: hooks() })];
    const model = scriptedModel([[load("count")], [echo("a", "e1")], [echo("b", "e2"), echo("c", "e3")]]);
    const first = await runAgent({ model, tools: [echoTool], middleware: middleware() });
    expect(runs()).toBe(1);
    const saved = (await first.checkpointer.getTuple(first.config))!.checkpoint.channel_values as {
      _skillHooksRan?: string[];
    };
    expect(saved._skillHooksRan).toEqual(["count/PreToolUse/0/0"]);
    // The same thread, continued by a new middleware (as another process would): the state says it ran.
    await runAgent({
      model: scriptedModel([[echo("d", "e4")]]),
      tools: [echoTool],
      middleware: middleware(),
      checkpointer: first.checkpointer,
    });
    expect(runs()).toBe(1);
    // Another thread runs it again.
    await runAgent({
      model: scriptedModel([[load("count")], [echo("e", "e5")], [echo("f", "e6")]]),
      tools: [echoTool],
      middleware: middleware(),
      checkpointer: first.checkpointer,
      threadId: "thread-2",
    });
    expect(runs()).toBe(2);
    // Parallel calls of one step: only the first runs it.
    await runAgent({
      model: scriptedModel([[load("count")], [echo("g", "e7"), echo("h", "e8")]]),
      tools: [echoTool],
      middleware: middleware(),
      checkpointer: first.checkpointer,
      threadId: "thread-3",
    });
    expect(runs()).toBe(3);
  });
});

describe("skill hooks under createDeepAgent", () => {
  it("a PreToolUse hook blocks deepagents' own write_file while its skill is loaded", async () => {
    const tree = skillTree({
      "skills/guard/SKILL.md": skillFile(
        "guard",
        "Use guard for tests.",
        `allowed-tools: scripts/*\n${hooksYaml("PreToolUse", "write_.*", "scripts/deny.sh")}`,
      ),
      "skills/guard/scripts/deny.sh":
        '#!/bin/sh\ncat > /dev/null\necho "no writes while guard is loaded" >&2\nexit 2\n',
    });
    trees.push(tree);
    chmodSync(join(tree.root, "skills/guard/scripts/deny.sh"), 0o755);
    // Real paths (no virtualMode): the local executor runs the hook in the skill's real folder.
    const backend = new FilesystemBackend({ rootDir: tree.root });
    const skills = join(tree.root, "skills");
    const model = scriptedModel([
      [load("guard")],
      [{ name: "write_file", args: { file_path: join(tree.root, "out.txt"), content: "x" }, id: "w1" }],
    ]);
    const agent = createDeepAgent({
      model,
      backend,
      skills: [skills],
      middleware: [createSkillsMiddleware({ sources: [skills], backend, hooks: hooks() })],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("go")] });

    expect(toolResults(result.messages).get("w1")).toEqual({
      content: "Error: A PreToolUse hook of skill 'guard' blocked this call: no writes while guard is loaded",
      status: "error",
    });
    expect(existsSync(join(tree.root, "out.txt"))).toBe(false);
  });
});
