import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import type { ScriptExecutor } from "../../exec/script-executor.js";
import { createCatalog } from "../catalog/catalog.js";
import { applySkillOperations, createSkillEngine, type SkillRequest, type SkillThreadState } from "./skill-engine.js";
import type { SkillsLogEntry } from "../skill-events.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import type { SkillSource } from "../skill-source.js";

// The engine on its own, as any host drives it: a catalog, a plain state value, operations back.

const skill = (name: string, extra = "", body = `Do ${name}.`) =>
  `---\nname: ${name}\ndescription: Use ${name}.\n${extra}---\n${body}\n`;

async function setup(files: Record<string, string>, options: Parameters<typeof createSkillEngine>[0] = {}) {
  const source = createMemorySource({ files });
  const catalog = createCatalog([source]);
  const entries: SkillsLogEntry[] = [];
  const engine = createSkillEngine({ ...options, logger: (entry) => entries.push(entry) });
  const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
  let state: SkillThreadState = {
    skills: refreshed.skills,
    catalogVersion: refreshed.version,
    loaded: [],
    resources: {},
  };
  const request = (): SkillRequest => ({ state, sources: async () => catalog.sources, sessionId: "s-1" });
  const apply = (operations: readonly SkillOperation[]) => {
    state = applySkillOperations(state, operations);
  };
  return { engine, catalog, source, entries, request, apply, state: () => state };
}

describe("createSkillEngine", () => {
  it("logs what it discovered with each noun in the right number", async () => {
    const one = await setup({ "/s/a/SKILL.md": skill("a") });
    expect(one.entries.find((entry) => entry.event === "skills_discovered")?.message).toBe(
      "Discovered 1 skill from 1 source",
    );
    const two = await setup({ "/s/a/SKILL.md": skill("a"), "/s/b/SKILL.md": skill("b") });
    expect(two.entries.find((entry) => entry.event === "skills_discovered")?.message).toBe(
      "Discovered 2 skills from 1 source",
    );
  });

  it("skillLocation names the SKILL.md and folder of a load result; the instructions stay as written", async () => {
    // The instructions mention the source's folder and even a closing tag: only the framing changes.
    const body = "Run /srv/skills/csv/scripts/run.sh.\nNot the end: </skill>\nSee /srv/skills/csv; done.";
    const { engine, request } = await setup(
      { "/srv/skills/csv/SKILL.md": skill("csv", "", body), "/srv/skills/csv/scripts/run.sh": "echo" },
      {
        resourceReadTool: "read_skill_resource",
        skillLocation: (loaded) => ({ file: `skill://${loaded.name}/SKILL.md`, folder: `skill://${loaded.name}/` }),
      },
    );
    const step = await engine.load(request(), { skill: "csv", id: "1" });
    expect(step.text).toBe(
      `<skill name="csv" path="skill://csv/SKILL.md">\n---\nname: csv\ndescription: Use csv.\n---\n${body}\n\n</skill>\n<skill_resources base="skill://csv/">\n- [script] scripts/run.sh\n</skill_resources>\nPaths above are relative to skill://csv/; read them with \`read_skill_resource\` when the instructions call for them.`,
    );
    expect(step.text).not.toContain("/srv/skills/csv/SKILL.md");
  });

  it("loads a skill: the text for the model and the operation for the host's state", async () => {
    const { engine, request } = await setup({ "/s/a/SKILL.md": skill("a"), "/s/a/references/x.md": "# x" });
    const step = await engine.load(request(), { skill: "a", id: "1" });
    expect(step).toEqual({
      ok: true,
      text: '<skill name="a" path="/s/a/SKILL.md">\n---\nname: a\ndescription: Use a.\n---\nDo a.\n\n</skill>\n<skill_resources base="/s/a">\n- [reference] references/x.md\n</skill_resources>\nPaths above are relative to /s/a; read them with `read_file` when the instructions call for them.',
      operations: [
        {
          kind: "load",
          skill: "a",
          resources: [{ path: "/s/a/references/x.md", relativePath: "references/x.md", type: "reference", size: 3 }],
        },
      ],
    });
  });

  it("an unknown name, and currentCatalog, ask the host's catalog again, which does not merge an unchanged library again; a skill written since is found", async () => {
    const memory = createMemorySource({ files: { "/s/a/SKILL.md": skill("a"), "/s/b/SKILL.md": skill("b") } });
    // Counts reads of the scans' skill lists: merging a snapshot (and hashing it) reads every skill.
    let reads = 0;
    const source: SkillSource = {
      ...memory,
      async scan() {
        const scan = await memory.scan();
        const counted = new Proxy(scan.skills, {
          get: (target, key) => (key === "length" && reads++, Reflect.get(target, key)),
        });
        return { ...scan, skills: counted };
      },
    };
    const catalog = createCatalog([source]);
    const engine = createSkillEngine();
    const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
    const state: SkillThreadState = { ...refreshed, catalogVersion: refreshed.version, loaded: [], resources: {} };
    const request: SkillRequest = { state, sources: async () => catalog.sources };
    const afterRefresh = reads;
    for (const id of ["1", "2", "3"])
      expect((await engine.load(request, { skill: "x", id })).text).toBe(
        "Error: Skill 'x' not found. Available skills: a, b",
      );
    const current = await engine.currentCatalog(request);
    expect({ names: current.skills.map((entry) => entry.name), version: current.version }).toEqual({
      names: ["a", "b"],
      version: refreshed.version,
    });
    expect(reads).toBe(afterRefresh);
    memory.write("/s/x/SKILL.md", skill("x"));
    expect(await engine.load(request, { skill: "x", id: "4" })).toMatchObject({
      ok: true,
      operations: [{ kind: "load", skill: "x" }],
    });
  });

  it("plans parallel calls together: the budget holds and the refused call says which load took the slot", async () => {
    const { engine, request } = await setup(
      { "/s/a/SKILL.md": skill("a"), "/s/b/SKILL.md": skill("b") },
      { maxLoadedSkills: 1 },
    );
    const calls = [
      { id: "1", action: "load" as const, skill: "a" },
      { id: "2", action: "load" as const, skill: "b" },
    ];
    const [first, second] = await Promise.all([
      engine.load(request(), { skill: "a", id: "1" }, calls),
      engine.load(request(), { skill: "b", id: "2" }, calls),
    ]);
    expect(first!.ok).toBe(true);
    expect(second).toEqual({
      ok: false,
      text:
        "Error: Cannot load skill 'b'. Maximum number of simultaneously loaded skills reached (1). Currently loaded: (none). Loads earlier in this step took the remaining slot(s): a. " +
        'Use `unload_skill("skill-name")` to unload a skill you no longer need, then retry loading.',
    });
  });

  it("with forkSkills, a context: fork skill's load and invocation come back as a fork's task, taking no slot; without it, it loads as any skill", async () => {
    const files = {
      "/s/a/SKILL.md": skill("a"),
      "/s/f/SKILL.md": skill("f", "context: fork\nagent: reviewer\nallowed-tools: lookup\n", "Review $ARGUMENTS."),
    };
    const { engine, request, apply, entries } = await setup(files, { maxLoadedSkills: 1, forkSkills: true });
    const first = await engine.load(request(), { skill: "a", id: "a" });
    if (first.ok) apply(first.operations);
    // Every slot is taken, and the fork still goes ahead.
    const loaded = await engine.load(request(), { skill: "f", id: "1", arguments: "the diff" });
    const task =
      '<skill name="f" path="/s/f/SKILL.md">\n---\nname: f\ndescription: Use f.\ncontext: fork\nagent: reviewer\nallowed-tools: lookup\n---\nReview the diff.\n\n</skill>\nRecommended tools while this skill is active: lookup';
    const note =
      "You run this skill as a forked agent: carry out its instructions now, then answer with the result; your last message is all the agent that started you receives.";
    expect(loaded).toEqual({
      ok: true,
      text: `${task}\n${note}`,
      operations: [{ kind: "load", skill: "f", resources: [] }],
      fork: { skill: "f", agent: "reviewer", allowedTools: ["lookup"] },
    });
    const command = engine.parseCommand("/f the diff", { catalogVersion: request().state.catalogVersion! })!;
    const invoked = await engine.invokeCommands(request(), ["/f the diff"]);
    expect(invoked.operations).toEqual([]);
    expect(invoked.invocations).toEqual([
      {
        at: 0,
        command,
        ok: true,
        text: `${task}\nThe user invoked this skill: /f the diff\n${note}`,
        fork: {
          skill: "f",
          agent: "reviewer",
          allowedTools: ["lookup"],
          operations: [{ kind: "load", skill: "f", resources: [] }],
        },
      },
    ]);
    expect(entries.filter((entry) => entry.event === "skill_loaded").map((entry) => entry.skill)).toEqual(["a"]);

    const inline = await setup(files, { maxLoadedSkills: 1 });
    const step = await inline.engine.load(inline.request(), { skill: "f", id: "1", arguments: "the diff" });
    expect(step).toEqual({ ok: true, text: task, operations: [{ kind: "load", skill: "f", resources: [] }] });
  });

  it("invokes a user's /name args, evicting the least recently loaded skill when the budget is full", async () => {
    const { engine, request, apply, state, entries } = await setup(
      {
        "/s/a/SKILL.md": skill("a"),
        "/s/b/SKILL.md": skill("b"),
        "/s/fix/SKILL.md": skill("fix", "argument-hint: '[issue]'\n", "Fix issue $0 in session ${CLAUDE_SESSION_ID}."),
      },
      { maxLoadedSkills: 2 },
    );
    for (const name of ["a", "b"]) {
      const step = await engine.load(request(), { skill: name, id: name });
      if (step.ok) apply(step.operations);
    }
    const command = engine.parseCommand("/fix 123", state())!;
    expect(command.arguments).toBe("123");
    const step = await engine.invoke(request(), command);
    expect(step.ok).toBe(true);
    if (!step.ok) return;
    expect(step.text).toContain("Fix issue 123 in session s-1.\n");
    expect(
      step.text.endsWith(
        "The user invoked this skill: /fix 123\nFollow its instructions now.\n(Skill 'a' was unloaded to make room: at most 2 skills can be loaded at once.)",
      ),
    ).toBe(true);
    apply(step.operations);
    expect(state().loaded).toEqual(["b", "fix"]);
    expect(entries.filter((entry) => entry.event === "skill_unloaded").map((entry) => entry.reason)).toEqual([
      "user-invocation",
    ]);
  });

  it("does not treat a path, an unknown name or a skill the user may not invoke as a command", async () => {
    const { engine, state } = await setup({
      "/s/a/SKILL.md": skill("a"),
      "/s/hidden/SKILL.md": skill("hidden", "user-invocable: false\n"),
    });
    for (const text of ["/etc/hosts", "/b", "/hidden", "a", "/a/b", "x /a"])
      expect(engine.parseCommand(text, state())).toBeUndefined();
    expect(engine.parseCommand("  /a\n  two lines ", state())?.arguments).toBe("two lines");
  });

  it("unloads a loaded skill that left every source when the catalog is refreshed", async () => {
    const { engine, catalog, source, request, apply, state } = await setup({
      "/s/a/SKILL.md": skill("a"),
      "/s/b/SKILL.md": skill("b"),
    });
    const step = await engine.load(request(), { skill: "a", id: "1" });
    if (step.ok) apply(step.operations);
    source.remove("/s/a");
    const refreshed = await engine.refresh(catalog, state());
    expect(refreshed!.skills.map((entry) => entry.name)).toEqual(["b"]);
    expect(refreshed!.operations).toEqual([{ kind: "unload", skill: "a" }]);
    expect([refreshed!.skill("b"), refreshed!.skill("a")]).toEqual([refreshed!.skills[0], undefined]);
    expect(await engine.refresh(catalog, { loaded: [], catalogVersion: refreshed!.version })).toBeUndefined();
  });

  it("reads resources and runs scripts only for loaded skills, through the allow-list", async () => {
    const runs: string[][] = [];
    const executor: ScriptExecutor = {
      specificationVersion: "v1",
      run: async ({ argv }) => {
        runs.push([...argv]);
        return {
          exitCode: 0,
          stdout: "ok\n",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          timedOut: false,
          durationMs: 1,
        };
      },
    };
    const { engine, request, apply } = await setup(
      { "/s/a/SKILL.md": skill("a"), "/s/a/scripts/run.sh": "echo ok", "/s/a/references/x.md": "line 1\nline 2\n" },
      { scripts: { executor } },
    );
    expect(await engine.readResource(request(), { skill: "a", path: "references/x.md" })).toEqual({
      ok: false,
      text: "Error: Skill 'a' is not loaded. Load it with load_skill first.",
    });
    const step = await engine.load(request(), { skill: "a", id: "1" });
    if (step.ok) apply(step.operations);
    expect(await engine.readResource(request(), { skill: "a", path: "../a/references/x.md" })).toMatchObject({
      ok: false,
    });
    expect((await engine.readResource(request(), { skill: "a", path: "references/x.md" })).text).toBe(
      "[references/x.md: lines 1-2 of 2]\nline 1\nline 2",
    );
    expect(await engine.runScript(request(), { skill: "a", command: "curl example.com" })).toEqual({
      ok: false,
      text: "Error: Command refused: 'curl' is not allowed for skill 'a' (allowed: scripts/*).",
    });
    expect(await engine.runScript(request(), { skill: "a", command: "scripts/run.sh x" })).toEqual({
      ok: true,
      text: "$ scripts/run.sh x\n(exited with code 0 after 1 ms)\n--- stdout ---\nok",
    });
    expect(runs).toEqual([["scripts/run.sh", "x"]]);
  });

  it("builds the prompt: stable catalog first, loaded skills after it, dropped instructions re-attached", async () => {
    const { engine, request, apply } = await setup({ "/s/a/SKILL.md": skill("a"), "/s/b/SKILL.md": skill("b") });
    const before = await engine.systemPrompt(request());
    const step = await engine.load(request(), { skill: "a", id: "1" });
    if (step.ok) apply(step.operations);
    const after = await engine.systemPrompt(request(), () => []);
    const catalogEnd = before.indexOf("Loaded skills: none");
    expect(after.slice(0, catalogEnd)).toBe(before.slice(0, catalogEnd));
    expect(after.slice(catalogEnd)).toBe(
      'Loaded skills (1/10, 9 slots free):\n- a\n\nInstructions of loaded skills whose load_skill results are no longer in the conversation (they are still loaded; follow them):\n<skill name="a" path="/s/a/SKILL.md">\n---\nname: a\ndescription: Use a.\n---\nDo a.\n\n</skill>',
    );
    expect(await engine.systemPrompt(request(), () => [step.text])).not.toContain("Instructions of loaded skills");
  });

  it('restricts tools to the loaded skills\' allowed-tools under "restrict"', async () => {
    const { engine, request, apply } = await setup(
      { "/s/a/SKILL.md": skill("a", "allowed-tools: Bash(git:*) Read\n") },
      { allowedToolsPolicy: "restrict" },
    );
    expect(engine.toolRefusal(request(), "web_search", new Set())).toBeUndefined();
    const step = await engine.load(request(), { skill: "a", id: "1" });
    if (step.ok) apply(step.operations);
    expect(engine.toolRefusal(request(), "bash", new Set())).toBeUndefined();
    expect(engine.toolRefusal(request(), "load_skill", new Set(["load_skill"]))).toBeUndefined();
    expect(engine.toolRefusal(request(), "web_search", new Set())).toMatch(/^Error: Tool 'web_search' is not allowed/);
  });
});
