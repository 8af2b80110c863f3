// Integration tests: the skills middleware's state survives real checkpointers across separate
// processes, skills can be served from a PostgreSQL-backed LangGraph store shared by several
// processes, and threads in one process never see each other's loads.
//
// Every agent runs the real `createAgent` loop with `fakeModel()`. The cross-process cases run
// test/langchain/fixtures/agent-worker.mjs (over the BUILT package: `npm run build` first) with
// `process.execPath`. The PostgreSQL tests use postgresql://postgres@127.0.0.1:5432/test, or
// SKILLSET_TEST_PG_URL; without a server there they skip, except under CI=true where they fail.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend } from "deepagents";
import { createAgent } from "langchain";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createSkillsMiddleware } from "../../src/langchain.js";
import { TEST_PG_URL, usePostgres } from "../helpers/test-environment.js";
import {
  inWorker,
  WorkerProcess,
  type CheckpointerSpec,
  type Turn,
  type TurnMessage,
} from "./fixtures/worker-process.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLES = path.join(ROOT, "examples", "skills");
const CSV_DIR = path.join(EXAMPLES, "csv-insights");
const CSV_SKILL_MD = path.join(CSV_DIR, "SKILL.md");
const PG_URL = TEST_PG_URL;

const NONE_LOADED = "Loaded skills: none (10 slots free).";
const CSV_LOADED =
  "Loaded skills (1/10, 9 slots free):\n- csv-insights (1 script, 1 reference, 2 assets; recommended tools: python3, Read)";
const CSV_ALREADY_LOADED = "Skill 'csv-insights' is already loaded. Its instructions are already active.";
const CSV_UNLOADED =
  "Skill 'csv-insights' has been unloaded. Currently loaded: 0/10 (10 slot(s) available). Its instructions from the earlier load_skill call are still in the conversation history, but no longer apply.";

// What load_skill returns for the example csv-insights skill (skill-tool-messages.ts, loadResultText);
// resources are listed in path order.
function csvLoadResult(): string {
  return (
    `<skill name="csv-insights" path="${CSV_SKILL_MD}">\n${readFileSync(CSV_SKILL_MD, "utf8")}\n</skill>\n` +
    `<skill_resources base="${CSV_DIR}">\n- [asset] assets/report-template.md\n- [asset] assets/sample.csv\n- [reference] references/interpreting-profiles.md\n- [script] scripts/profile_csv.py\n</skill_resources>\n` +
    `Paths above are relative to ${CSV_DIR}; read them with \`read_skill_resource\` when the instructions call for them.\n` +
    "Recommended tools while this skill is active: python3, Read"
  );
}

function csvResources() {
  const entry = (relativePath: string, type: string) => {
    const file = path.join(CSV_DIR, relativePath);
    return { path: file, relativePath, type, size: statSync(file).size };
  };
  return [
    entry("assets/report-template.md", "asset"),
    entry("assets/sample.csv", "asset"),
    entry("references/interpreting-profiles.md", "reference"),
    entry("scripts/profile_csv.py", "script"),
  ];
}

const loadCall = (skill: string, id: string) => ({
  toolCalls: [{ name: "load_skill", args: { skill_name: skill }, id }],
});
const unloadCall = (skill: string, id: string) => ({
  toolCalls: [{ name: "unload_skill", args: { skill_name: skill }, id }],
});
const done = (text = "done") => ({ text });

function toolMessages(turn: Turn): TurnMessage[] {
  return turn.newMessages.filter((message) => message.type === "tool");
}

function systemOf(turn: Turn, call: number): string {
  const system = turn.modelCalls[call]?.system;
  if (typeof system !== "string")
    throw new Error(`model call ${call} had no system message: ${JSON.stringify(turn.modelCalls[call])}`);
  return system;
}

/** The loaded-skills section: the system prompt's last paragraph group, after the catalog. */
// The skill names of the catalog lines in a system prompt.
function catalogNames(system: string): string[] {
  return [...system.matchAll(/^- ([a-z0-9-]+)(?: \(arguments: [^)]*\))?: /gm)].map((match) => match[1]!);
}

function loadedSection(system: string): string {
  const start = system.lastIndexOf("\n\nLoaded skills");
  return start < 0 ? "" : system.slice(start + 2);
}

// ---------------------------------------------------------------------------------------------
// Cases 1 and 2: one thread continued by three processes over a shared checkpointer
// ---------------------------------------------------------------------------------------------

async function continueThreadAcrossProcesses(checkpointer: CheckpointerSpec, threadId: string): Promise<void> {
  const skills = { kind: "local" as const, sources: [EXAMPLES] };

  // Process A: a new thread; loads csv-insights.
  const a = await inWorker({ checkpointer, skills }, (worker) =>
    worker.run(threadId, "Profile data.csv", [loadCall("csv-insights", "a-load"), done()]),
  );
  expect(a.before).toEqual({
    skillsLoaded: null,
    catalogInState: false,
    skillResources: null,
    catalogVersion: null,
    messageCount: 0,
  });
  expect(a.modelCalls.map((call) => call.types)).toEqual([
    ["system", "human"],
    ["system", "human", "ai", "tool"],
  ]);
  expect(loadedSection(systemOf(a, 0))).toBe(NONE_LOADED);
  expect(loadedSection(systemOf(a, 1))).toBe(CSV_LOADED);
  expect(toolMessages(a)).toEqual([
    {
      type: "tool",
      id: expect.any(String),
      content: csvLoadResult(),
      name: "load_skill",
      status: null,
      toolCallId: "a-load",
    },
  ]);
  expect(a.after.skillsLoaded).toEqual(["csv-insights"]);
  expect(catalogNames(systemOf(a, 0))).toEqual(["api-error-review", "csv-insights", "release-notes"]);
  expect(a.after.catalogInState).toBe(false);
  expect(a.after.skillResources).toEqual({ "csv-insights": csvResources() });
  expect(a.after.catalogVersion).toEqual(expect.any(String));
  expect(a.after.messageCount).toBe(4);

  // Process B: a new agent and middleware over the same checkpoint database and thread.
  const b = await inWorker({ checkpointer, skills }, (worker) =>
    worker.run(threadId, "Now something else", [
      loadCall("csv-insights", "b-load"),
      unloadCall("csv-insights", "b-unload"),
      done(),
    ]),
  );
  expect(b.pid).not.toBe(a.pid);
  expect(b.before).toEqual(a.after);
  expect(b.modelCalls.map((call) => call.types)).toEqual([
    ["system", "human", "ai", "tool", "ai", "human"],
    ["system", "human", "ai", "tool", "ai", "human", "ai", "tool"],
    ["system", "human", "ai", "tool", "ai", "human", "ai", "tool", "ai", "tool"],
  ]);
  // Its first model call already shows the skill loaded: the same prompt A's agent saw last.
  expect(systemOf(b, 0)).toBe(systemOf(a, 1));
  expect(loadedSection(systemOf(b, 1))).toBe(CSV_LOADED);
  expect(loadedSection(systemOf(b, 2))).toBe(NONE_LOADED);
  expect(toolMessages(b)).toEqual([
    {
      type: "tool",
      id: expect.any(String),
      content: CSV_ALREADY_LOADED,
      name: "load_skill",
      status: "error",
      toolCallId: "b-load",
    },
    {
      type: "tool",
      id: expect.any(String),
      content: CSV_UNLOADED,
      name: "unload_skill",
      status: null,
      toolCallId: "b-unload",
    },
  ]);
  expect(b.after).toEqual({ ...a.after, skillsLoaded: [], skillResources: {}, messageCount: 10 });

  // Process C: sees the skill unloaded, and can load it again.
  const c = await inWorker({ checkpointer, skills }, (worker) =>
    worker.run(threadId, "Profile it again", [loadCall("csv-insights", "c-load"), done()]),
  );
  expect(c.pid).not.toBe(b.pid);
  expect(c.before).toEqual(b.after);
  expect(c.modelCalls).toHaveLength(2);
  expect(systemOf(c, 0)).toBe(systemOf(a, 0));
  expect(loadedSection(systemOf(c, 1))).toBe(CSV_LOADED);
  expect(toolMessages(c)).toEqual([
    {
      type: "tool",
      id: expect.any(String),
      content: csvLoadResult(),
      name: "load_skill",
      status: null,
      toolCallId: "c-load",
    },
  ]);
  expect(c.after).toEqual({ ...a.after, messageCount: 14 });
}

describe("SQLite checkpointer: one thread continued by separate processes", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("keeps skillsLoaded, refuses a second load, and carries the unload to the next process", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "skillset-sqlite-"));
    await continueThreadAcrossProcesses({ kind: "sqlite", file: path.join(dir, "checkpoints.db") }, "sqlite-thread");
  });
});

// ---------------------------------------------------------------------------------------------
// PostgreSQL (cases 2 and 3): skipped without a server, except under CI=true
// ---------------------------------------------------------------------------------------------

async function withPg<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

function uniqueSchema(): string {
  return `skillset_test_${randomBytes(6).toString("hex")}`;
}

// Checked once, inside each PostgreSQL test, so that under CI=true without a server every one of
// them FAILS with this message (a failing beforeAll would report them as skipped).
let postgresCheck: Promise<void> | undefined;
function requirePostgres(): Promise<void> {
  postgresCheck ??= withPg((client) => client.query("SELECT 1")).then(
    () => undefined,
    (error: unknown) => {
      throw new Error(
        `PostgreSQL is not reachable at ${PG_URL} (${error instanceof Error ? error.message : String(error)}). ` +
          "Start a PostgreSQL server there or set SKILLSET_TEST_PG_URL to use another one; under CI=true these tests must run.",
      );
    },
  );
  return postgresCheck;
}

describe.skipIf(!(await usePostgres()))("PostgreSQL", () => {
  const schemas: string[] = [];

  afterAll(async () => {
    if (schemas.length === 0) return;
    await withPg(async (client) => {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  });

  it("PostgresSaver: keeps skillsLoaded, refuses a second load, and carries the unload to the next process", async () => {
    await requirePostgres();
    const schema = uniqueSchema();
    schemas.push(schema);
    await continueThreadAcrossProcesses({ kind: "postgres", url: PG_URL, schema }, "postgres-thread");
    // The checkpoints went to the test's own schema.
    const rows = await withPg((client) => client.query(`SELECT DISTINCT thread_id FROM "${schema}".checkpoints`));
    expect(rows.rows).toEqual([{ thread_id: "postgres-thread" }]);
  });

  it("PostgresStore: two processes share skills served from the store, and both see a skill added later", async () => {
    await requirePostgres();
    const schema = uniqueSchema();
    schemas.push(schema);
    const store = PostgresStore.fromConnString(PG_URL, { schema });
    await store.setup();
    const workers: WorkerProcess[] = [];
    try {
      const backend = new StoreBackend({ store, namespace: ["skills"] });
      const skillText = (name: string) =>
        `---\nname: ${name}\ndescription: Use ${name} for store tests.\n---\n\n# ${name}\n\nRun scripts/run.py.\n`;
      const script = (name: string) => `print("${name}")\n`;
      const addSkill = async (name: string) => {
        expect((await backend.write(`/skills/${name}/SKILL.md`, skillText(name))).error).toBeUndefined();
        expect((await backend.write(`/skills/${name}/scripts/run.py`, script(name))).error).toBeUndefined();
      };
      await addSkill("alpha");
      await addSkill("beta");

      const catalogLine = (name: string) => `\n- ${name}: Use ${name} for store tests.\n`;
      const loadResult = (name: string) =>
        `<skill name="${name}" path="/skills/${name}/SKILL.md">\n${skillText(name)}\n</skill>\n` +
        `<skill_resources base="/skills/${name}">\n- [script] scripts/run.py\n</skill_resources>\n` +
        `Paths above are relative to /skills/${name}; read them with \`read_skill_resource\` when the instructions call for them.`;
      const resources = (name: string) => [
        {
          path: `/skills/${name}/scripts/run.py`,
          relativePath: "scripts/run.py",
          type: "script",
          size: script(name).length,
        },
      ];

      const config = {
        checkpointer: { kind: "memory" as const },
        skills: { kind: "store" as const, url: PG_URL, schema, namespace: ["skills"], sources: ["/skills/"] },
      };
      const first = new WorkerProcess(config);
      const second = new WorkerProcess(config);
      workers.push(first, second);

      // Both processes at once, each loading one skill on its own thread.
      const [one, two] = await Promise.all([
        first.run("store-1", "Use alpha", [loadCall("alpha", "one-load"), done()]),
        second.run("store-2", "Use beta", [loadCall("beta", "two-load"), done()]),
      ]);
      expect(one.pid).not.toBe(two.pid);
      for (const [turn, name] of [
        [one, "alpha"],
        [two, "beta"],
      ] as const) {
        const system = systemOf(turn, 0);
        expect(system).toContain(catalogLine("alpha"));
        expect(system).toContain(catalogLine("beta"));
        expect(system).not.toContain("gamma");
        expect(loadedSection(system)).toBe(NONE_LOADED);
        expect(loadedSection(systemOf(turn, 1))).toBe(`Loaded skills (1/10, 9 slots free):\n- ${name} (1 script)`);
        expect(toolMessages(turn)).toEqual([
          {
            type: "tool",
            id: expect.any(String),
            content: loadResult(name),
            name: "load_skill",
            status: null,
            toolCallId: `${turn === one ? "one" : "two"}-load`,
          },
        ]);
        expect(catalogNames(systemOf(turn, 0))).toEqual(["alpha", "beta"]);
        expect(turn.after.skillsLoaded).toEqual([name]);
        expect(turn.after.skillResources).toEqual({ [name]: resources(name) });
      }

      // A third skill appears in the store; the next invocation of each process sees it
      // (a fresh catalog per invocation, decision 4), and loads made before are kept.
      await addSkill("gamma");
      const again = await first.run("store-1", "Use gamma too", [loadCall("gamma", "one-gamma"), done()]);
      expect(systemOf(again, 0)).toContain(catalogLine("gamma"));
      expect(loadedSection(systemOf(again, 0))).toBe("Loaded skills (1/10, 9 slots free):\n- alpha (1 script)");
      expect(loadedSection(systemOf(again, 1))).toBe(
        "Loaded skills (2/10, 8 slots free):\n- alpha (1 script)\n- gamma (1 script)",
      );
      expect(toolMessages(again)).toEqual([
        {
          type: "tool",
          id: expect.any(String),
          content: loadResult("gamma"),
          name: "load_skill",
          status: null,
          toolCallId: "one-gamma",
        },
      ]);
      expect(catalogNames(systemOf(again, 0))).toEqual(["alpha", "beta", "gamma"]);
      expect(again.after.skillsLoaded).toEqual(["alpha", "gamma"]);
      expect(again.after.skillResources).toEqual({ alpha: resources("alpha"), gamma: resources("gamma") });

      const twoAgain = await second.run("store-2", "Anything new?", [done()]);
      expect(systemOf(twoAgain, 0)).toContain(catalogLine("gamma"));
      expect(loadedSection(systemOf(twoAgain, 0))).toBe("Loaded skills (1/10, 9 slots free):\n- beta (1 script)");
      expect(catalogNames(systemOf(twoAgain, 0))).toEqual(["alpha", "beta", "gamma"]);
      expect(twoAgain.after.skillsLoaded).toEqual(["beta"]);

      // gamma leaves the store: the next invocation drops it from the catalog and unloads it.
      expect((await backend.delete("/skills/gamma")).error).toBeUndefined();
      const gone = await first.run("store-1", "Is gamma still there?", [done()]);
      expect(gone.before.skillsLoaded).toEqual(["alpha", "gamma"]);
      expect(systemOf(gone, 0)).not.toContain("gamma");
      expect(loadedSection(systemOf(gone, 0))).toBe("Loaded skills (1/10, 9 slots free):\n- alpha (1 script)");
      expect(catalogNames(systemOf(gone, 0))).toEqual(["alpha", "beta"]);
      expect(gone.after.skillsLoaded).toEqual(["alpha"]);
      expect(gone.after.skillResources).toEqual({ alpha: resources("alpha") });

      // beta is rewritten with a new description: the other process's next prompt shows it.
      expect(
        (
          await backend.write(
            "/skills/beta/SKILL.md",
            skillText("beta").replace("for store tests", "for updated store tests"),
          )
        ).error,
      ).toBeUndefined();
      const edited = await second.run("store-2", "Anything changed?", [done()]);
      expect(systemOf(edited, 0)).toContain("\n- beta: Use beta for updated store tests.\n");
      expect(systemOf(edited, 0)).not.toContain("gamma");
      expect(catalogNames(systemOf(edited, 0))).toEqual(["alpha", "beta"]);
      expect(edited.after.skillsLoaded).toEqual(["beta"]);
      await addSkill("gamma");

      // A process started now sees the store as it is, from its first call.
      const third = await inWorker(config, (worker) => worker.run("store-3", "List skills", [done()]));
      expect(third.modelCalls).toHaveLength(1);
      expect(systemOf(third, 0)).toContain(
        `${catalogLine("alpha").trimEnd()}\n- beta: Use beta for updated store tests.${catalogLine("gamma")}`,
      );
      expect(catalogNames(systemOf(third, 0))).toEqual(["alpha", "beta", "gamma"]);
      expect(third.after.skillsLoaded).toEqual([]);

      await Promise.all(workers.map((worker) => worker.close()));
    } finally {
      for (const worker of workers) worker.kill();
      await store.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Case 4: two threads, one process, one middleware instance
// ---------------------------------------------------------------------------------------------

describe("one middleware instance, two threads (MemorySaver)", () => {
  const systemText = (messages: readonly BaseMessage[]) => {
    const first = messages[0];
    if (!first || first.type !== "system") throw new Error("the model call had no system message");
    return first.text;
  };
  type SkillsValues = { skillsLoaded?: string[]; skillResources?: Record<string, unknown> };
  // ReactAgent.getState()'s declared type does not expose `values` here, so read it through a cast.
  type StateReader = { getState(config: { configurable: { thread_id: string } }): Promise<unknown> };
  const valuesOf = async (agent: StateReader, threadId: string) =>
    ((await agent.getState({ configurable: { thread_id: threadId } })) as { values: SkillsValues }).values;

  it("a load in thread 1 is not seen by thread 2, in its state or in its prompt", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "csv-insights" }, id: "t1-load" }])
      .respond(new AIMessage("done in thread 1"))
      .respond(new AIMessage("done in thread 2"))
      .respondWithTools([{ name: "load_skill", args: { skill_name: "release-notes" }, id: "t2-load" }])
      .respond(new AIMessage("done in thread 2 again"))
      .respond(new AIMessage("done in thread 1 again"));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [EXAMPLES] })],
      checkpointer: new MemorySaver(),
    });
    const thread1 = { configurable: { thread_id: "thread-1" } };
    const thread2 = { configurable: { thread_id: "thread-2" } };
    const loadedIn = async (config: typeof thread1) =>
      (await valuesOf(agent, config.configurable.thread_id)).skillsLoaded;

    await agent.invoke({ messages: [{ role: "user", content: "Profile data.csv" }] }, thread1);
    expect(await loadedIn(thread1)).toEqual(["csv-insights"]);
    expect(loadedSection(systemText(model.calls[1]!.messages))).toBe(CSV_LOADED);

    await agent.invoke({ messages: [{ role: "user", content: "Hello" }] }, thread2);
    expect(model.calls[2]!.messages.map((message) => message.type)).toEqual(["system", "human"]);
    expect(loadedSection(systemText(model.calls[2]!.messages))).toBe(NONE_LOADED);
    expect(await loadedIn(thread2)).toEqual([]);
    expect((await valuesOf(agent, "thread-2")).skillResources).toEqual({});

    // A load in thread 2 stays there; thread 1 keeps only its own.
    await agent.invoke({ messages: [{ role: "user", content: "Draft release notes" }] }, thread2);
    expect(await loadedIn(thread2)).toEqual(["release-notes"]);
    expect(loadedSection(systemText(model.calls[3]!.messages))).toBe(NONE_LOADED);
    expect(loadedSection(systemText(model.calls[4]!.messages))).toMatch(
      /^Loaded skills \(1\/10, 9 slots free\):\n- release-notes \(/,
    );
    expect(loadedSection(systemText(model.calls[4]!.messages))).not.toContain("csv-insights");

    await agent.invoke({ messages: [{ role: "user", content: "Back to the CSV" }] }, thread1);
    expect(loadedSection(systemText(model.calls[5]!.messages))).toBe(CSV_LOADED);
    expect(await loadedIn(thread1)).toEqual(["csv-insights"]);
    expect(model.callCount).toBe(6);
  });

  it("two threads invoked concurrently each see only their own load", async () => {
    // The queue is shared and FIFO, so every entry answers from the messages it is given: a
    // user message "load <skill>" gets that load call, anything after a tool result gets "done".
    const seen: Array<{ user: string; system: string; last: string }> = [];
    const answer = (messages: BaseMessage[]) => {
      const user = messages.find((message) => message.type === "human")!.text;
      const last = messages[messages.length - 1]!;
      seen.push({ user, system: systemText(messages), last: last.type });
      const skill = user.replace(/^load /, "");
      if (last.type === "human")
        return new AIMessage({
          content: "",
          id: `ai-${skill}`,
          tool_calls: [{ name: "load_skill", args: { skill_name: skill }, id: `load-${skill}`, type: "tool_call" }],
        });
      return new AIMessage(`done with ${skill}`);
    };
    const model = fakeModel().respond(answer).respond(answer).respond(answer).respond(answer);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [EXAMPLES] })],
      checkpointer: new MemorySaver(),
    });
    await Promise.all([
      agent.invoke(
        { messages: [{ role: "user", content: "load csv-insights" }] },
        { configurable: { thread_id: "concurrent-1" } },
      ),
      agent.invoke(
        { messages: [{ role: "user", content: "load release-notes" }] },
        { configurable: { thread_id: "concurrent-2" } },
      ),
    ]);
    const [one, two] = [await valuesOf(agent, "concurrent-1"), await valuesOf(agent, "concurrent-2")];
    expect(one.skillsLoaded).toEqual(["csv-insights"]);
    expect(two.skillsLoaded).toEqual(["release-notes"]);
    expect(Object.keys(one.skillResources ?? {})).toEqual(["csv-insights"]);
    expect(Object.keys(two.skillResources ?? {})).toEqual(["release-notes"]);

    expect(seen).toHaveLength(4);
    for (const call of seen) {
      const skill = call.user.replace(/^load /, "");
      const other = skill === "csv-insights" ? "release-notes" : "csv-insights";
      const section = loadedSection(call.system);
      if (call.last === "human") expect(section).toBe(NONE_LOADED);
      else expect(section).toMatch(new RegExp(`^Loaded skills \\(1/10, 9 slots free\\):\\n- ${skill} \\(`));
      expect(section).not.toContain(other);
    }
  });
});
