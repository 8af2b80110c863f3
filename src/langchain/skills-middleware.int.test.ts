import { join } from "node:path";
import { createAgent, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  load,
  runAgent,
  scriptedModel,
  skillFile,
  skillTree,
  systemPromptOf,
  toolResults,
  unload,
} from "../../test/langchain/helpers.js";
import { createMemorySource } from "../sources/memory-source.js";
import type { SkillSource } from "../core/skill-source.js";
import { createSkillsMiddleware } from "./skills-middleware.js";
import type { SkillsLogEntry } from "../core/skill-events.js";

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

/** web-research has every kind of resource; plain has none. */
function fixture() {
  const tree = skillTree({
    "web-research/SKILL.md": skillFile(
      "web-research",
      "Research topics on the web.",
      "allowed-tools: search read_file\n",
      "# Web research\n\nSearch, then summarise.",
    ),
    "web-research/scripts/search.py": "print('search')",
    "web-research/scripts/parse.py": "print('parse')",
    "web-research/references/api.md": "# API",
    "web-research/template.md": "# Template",
    "web-research/temp/scratch.txt": "not a resource",
    "plain/SKILL.md": skillFile("plain", "A skill without resources."),
    "minimal/SKILL.md": "---\nname: minimal\ndescription: Only the two required fields.\n---\nDo the minimal thing.\n",
  });
  trees.push(tree);
  return tree;
}

function manySkills(count: number) {
  const files: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    const name = `s${String(i).padStart(2, "0")}`;
    files[`${name}/SKILL.md`] = skillFile(name);
  }
  const tree = skillTree(files);
  trees.push(tree);
  return tree;
}

describe("resource discovery on load (seed 001 §8.1)", () => {
  it("test_discover_resources_standard_dirs: finds scripts/, references/ and assets/ files", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("web-research")]]),
    });
    expect(result.skillResources["web-research"]!.map((resource) => [resource.type, resource.relativePath])).toEqual([
      ["other", "template.md"],
      ["reference", "references/api.md"],
      ["script", "scripts/parse.py"],
      ["script", "scripts/search.py"],
    ]);
  });

  it("test_discover_resources_empty_skill: no resources gives an empty list", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("plain")]]),
    });
    expect(result.skillResources).toEqual({ plain: [] });
  });

  it("test_discover_resources_backend_error: a failing listing degrades to no resources, logged", async () => {
    const memory = createMemorySource({ files: { "/s/flaky/SKILL.md": skillFile("flaky") } });
    const flaky: SkillSource = { ...memory, listFiles: () => Promise.reject(new Error("listing unavailable")) };
    const entries: SkillsLogEntry[] = [];
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [flaky], logger: (entry) => entries.push(entry) })],
      model: scriptedModel([[load("flaky")]]),
    });
    expect(result.skillsLoaded).toEqual(["flaky"]);
    expect(result.skillResources).toEqual({ flaky: [] });
    expect(toolResults(result.messages).get("load-flaky")!.content).toContain(
      "(Could not list this skill's resources: listing unavailable)",
    );
    expect(entries.filter((entry) => entry.event === "resource_discovery_failed")).toEqual([
      expect.objectContaining({
        level: "warn",
        skill: "flaky",
        message: "Failed to list resources for skill 'flaky': listing unavailable",
      }),
    ]);
  });

  it("test_discover_resources_non_standard_dirs_ignored: temp/ is not a resource", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("web-research")]]),
    });
    expect(result.skillResources["web-research"]!.map((resource) => resource.relativePath)).not.toContain(
      "temp/scratch.txt",
    );
  });

  it("test_discover_resources_root_level_files: files beside SKILL.md are 'other'", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("web-research")]]),
    });
    expect(result.skillResources["web-research"]!.find((resource) => resource.relativePath === "template.md")).toEqual({
      path: join(root, "web-research", "template.md"),
      relativePath: "template.md",
      type: "other",
      size: 10,
    });
  });
});

describe("state initialisation (seed 001 §8.1)", () => {
  it("test_before_agent_initializes_new_state: the catalog's version, not the catalog, in state; nothing loaded", async () => {
    const { root } = fixture();
    const model = scriptedModel([]);
    const { result, checkpointer, config } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model,
    });
    expect(systemPromptOf(model, 0)).toMatch(/\n- minimal: .*\n- plain: .*\n- web-research: /);
    const channels = (await checkpointer.getTuple(config))!.checkpoint.channel_values;
    expect(
      Object.keys(channels)
        .filter((key) => /skill/i.test(key))
        .sort(),
    ).toEqual([
      "_skillHooksRan",
      "_skillsCatalogVersion",
      "pinnedSkills",
      "skillResources",
      "skillsForkDepth",
      "skillsLoaded",
    ]);
    // The pinning and fork-depth keys are channels, but hold nothing unless the application pins
    // skills, or the agent is a forked skill's; no `once` hook has run yet.
    expect(channels._skillHooksRan ?? []).toEqual([]);
    expect(channels.pinnedSkills).toBeUndefined();
    expect(channels.skillsForkDepth).toBeUndefined();
    expect(channels._skillsCatalogVersion).toMatch(/^[0-9a-f]+:\d+$/);
    expect(result.skillsLoaded).toEqual([]);
    expect(result.skillResources).toEqual({});
  });

  it("test_before_agent_idempotent: an unchanged catalog is not written again by the next invocation's steps", async () => {
    const { root } = fixture();
    const middleware = createSkillsMiddleware({ sources: [root] });
    const first = await runAgent({ middleware: [middleware], model: scriptedModel([]) });
    const catalogVersion = (await first.checkpointer.getTuple(first.config))!.checkpoint.channel_versions
      ._skillsCatalogVersion;
    await runAgent({ middleware: [middleware], model: scriptedModel([]), checkpointer: first.checkpointer });
    // createAgent re-submits every public state key with the input (ReactAgent#initializeMiddlewareStates),
    // so compare the checkpoint that applied the second run's input with its final one.
    const checkpoints = [];
    for await (const tuple of first.checkpointer.list(first.config)) checkpoints.push(tuple);
    const [final] = checkpoints;
    const inputStep = checkpoints.find((tuple) => tuple.metadata?.source === "input")!.metadata!.step;
    const input = checkpoints.find((tuple) => tuple.metadata?.step === inputStep + 1)!;
    for (const key of ["skillsLoaded", "skillResources", "_skillsCatalogVersion"]) {
      expect(final!.checkpoint.channel_versions[key]).toBe(input.checkpoint.channel_versions[key]);
    }
    expect(final!.checkpoint.channel_versions._skillsCatalogVersion).toBe(catalogVersion);
    expect(final!.checkpoint.channel_versions.messages).not.toBe(input.checkpoint.channel_versions.messages);
  });
});

describe("load_skill (seed 001 §8.1, errors §7.2)", () => {
  it("test_load_skill_returns_command_with_content: SKILL.md content plus the resource summary", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("web-research")]]),
    });
    const { content, status } = toolResults(result.messages).get("load-web-research")!;
    expect(status).not.toBe("error");
    expect(content).toBe(
      [
        `<skill name="web-research" path="${join(root, "web-research", "SKILL.md")}">`,
        skillFile(
          "web-research",
          "Research topics on the web.",
          "allowed-tools: search read_file\n",
          "# Web research\n\nSearch, then summarise.",
        ),
        "</skill>",
        `<skill_resources base="${join(root, "web-research")}">`,
        "- [other] template.md",
        "- [reference] references/api.md",
        "- [script] scripts/parse.py",
        "- [script] scripts/search.py",
        "</skill_resources>",
        `Paths above are relative to ${join(root, "web-research")}; read them with \`read_skill_resource\` when the instructions call for them.`,
        "Recommended tools while this skill is active: search, read_file",
      ].join("\n"),
    );
  });

  it("test_load_skill_updates_skills_loaded: names in load order", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("web-research")], [load("plain")]]),
    });
    expect(result.skillsLoaded).toEqual(["web-research", "plain"]);
  });

  it("test_load_skill_updates_skill_resources: each loaded skill's resources, keyed by name", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("plain")], [load("web-research")]]),
    });
    expect(Object.keys(result.skillResources).sort()).toEqual(["plain", "web-research"]);
    expect(result.skillResources.plain).toEqual([]);
    expect(result.skillResources["web-research"]).toHaveLength(4);
  });

  it("test_load_skill_not_found_returns_error: lists what exists, changes nothing", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("nope")]]),
    });
    expect(toolResults(result.messages).get("load-nope")).toEqual({
      content: "Error: Skill 'nope' not found. Available skills: minimal, plain, web-research",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual([]);
    expect(result.skillResources).toEqual({});
  });

  it("test_load_skill_already_loaded_returns_message", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("plain", "a")], [load("plain", "b")]]),
    });
    expect(toolResults(result.messages).get("b")).toEqual({
      content: "Skill 'plain' is already loaded. Its instructions are already active.",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual(["plain"]);
  });

  it("test_load_skill_file_read_error: a failed read is reported, nothing is loaded", async () => {
    const memory = createMemorySource({ files: { "/s/gone/SKILL.md": skillFile("gone") } });
    const broken: SkillSource = { ...memory, readSkill: () => Promise.reject(new Error("disk on fire")) };
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [broken] })],
      model: scriptedModel([[load("gone")]]),
    });
    expect(toolResults(result.messages).get("load-gone")).toEqual({
      content: "Error: Failed to read skill file at /s/gone/SKILL.md: disk on fire",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual([]);
  });

  it("test_load_skill_file_size_exceeded: a SKILL.md that has grown over 10 MiB since discovery is refused, naming the file", async () => {
    const memory = createMemorySource({ files: { "/s/huge/SKILL.md": skillFile("huge") } });
    const huge: SkillSource = { ...memory, readSkill: async () => new Uint8Array(10 * 1024 * 1024 + 1) };
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [huge] })],
      model: scriptedModel([[load("huge")]]),
    });
    expect(toolResults(result.messages).get("load-huge")).toEqual({
      content: "Error: Skill file at /s/huge/SKILL.md exceeds maximum size (10485760 bytes)",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual([]);
  });

  it("reports a SKILL.md that is not UTF-8 as a decode error", async () => {
    const memory = createMemorySource({ files: { "/s/latin/SKILL.md": skillFile("latin") } });
    const latin: SkillSource = {
      ...memory,
      readSkill: async () => new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]),
    };
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [latin] })],
      model: scriptedModel([[load("latin")]]),
    });
    expect(toolResults(result.messages).get("load-latin")!.content).toMatch(
      /^Error: Failed to decode skill file at \/s\/latin\/SKILL\.md: /,
    );
    expect(result.skillsLoaded).toEqual([]);
  });

  it("test_load_skill_max_loaded_reached: names what is loaded and points to unload_skill", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 1 })],
      model: scriptedModel([[load("plain")], [load("minimal")]]),
    });
    expect(toolResults(result.messages).get("load-minimal")).toEqual({
      content:
        "Error: Cannot load skill 'minimal'. Maximum number of simultaneously loaded skills reached (1). Currently loaded: plain. " +
        'Use `unload_skill("skill-name")` to unload a skill you no longer need, then retry loading.',
      status: "error",
    });
    expect(result.skillsLoaded).toEqual(["plain"]);
  });

  it("treats skills only a user may invoke (disable-model-invocation) as unknown to the model", async () => {
    const tree = skillTree({
      "manual/SKILL.md": skillFile("manual", "Deploy.", "disable-model-invocation: true\n"),
      "plain/SKILL.md": skillFile("plain"),
    });
    trees.push(tree);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [tree.root] })],
      model: scriptedModel([[load("manual")]]),
    });
    expect(toolResults(result.messages).get("load-manual")).toEqual({
      content: "Error: Skill 'manual' not found. Available skills: plain",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual([]);
  });
});

describe("unload_skill (seed 001 §8.1, errors §7.3)", () => {
  it("test_unload_skill_success: frees the slot and says what is still loaded", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 3 })],
      model: scriptedModel([[load("plain")], [load("web-research")], [unload("web-research")]]),
    });
    expect(toolResults(result.messages).get("unload-web-research")).toEqual({
      content:
        "Skill 'web-research' has been unloaded. Currently loaded: 1/3 (2 slot(s) available): plain. " +
        "Its instructions from the earlier load_skill call are still in the conversation history, but no longer apply.",
      status: undefined,
    });
    expect(result.skillsLoaded).toEqual(["plain"]);
  });

  it("test_unload_skill_clears_resources: the unloaded skill's resources leave state", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("plain")], [load("web-research")], [unload("web-research")]]),
    });
    expect(result.skillResources).toEqual({ plain: [] });
  });

  it("test_unload_skill_not_loaded_returns_error", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("plain")], [unload("minimal")]]),
    });
    expect(toolResults(result.messages).get("unload-minimal")).toEqual({
      content: "Error: Skill 'minimal' is not currently loaded. Currently loaded skills: plain.",
      status: "error",
    });
    expect(result.skillsLoaded).toEqual(["plain"]);
  });

  it("test_unload_skill_then_reload: resources are discovered again", async () => {
    const { root } = fixture();
    const tree = { root };
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [tree.root] })],
      model: scriptedModel([
        [load("web-research", "first")],
        [unload("web-research")],
        [load("web-research", "second")],
      ]),
    });
    expect(result.skillsLoaded).toEqual(["web-research"]);
    expect(result.skillResources["web-research"]).toHaveLength(4);
    expect(toolResults(result.messages).get("second")!.content).toContain("- [script] scripts/search.py");
  });
});

describe("system prompt (seed 001 §8.1, decision 5)", () => {
  it("test_format_skills_list_load_skill_guidance: the catalog tells how to load and unload", async () => {
    const { root } = fixture();
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    const prompt = systemPromptOf(model, 0);
    expect(prompt).toContain("call `load_skill` with its name");
    expect(prompt).toContain("Call `unload_skill` when you no longer need a skill");
    expect(prompt).toContain("- web-research: Research topics on the web.");
    expect(prompt).toContain("Loaded skills: none (10 slots free).");
  });

  it("an agent without a system prompt gets the skills section alone, without leading blank lines", async () => {
    const { root } = fixture();
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    expect(systemPromptOf(model, 0).slice(0, 12)).toBe("## Skills\n\nS");
  });

  it("test_format_skills_list_with_loaded_status: loaded skills and free slots follow the catalog", async () => {
    const { root } = fixture();
    const model = scriptedModel([[load("plain")]]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    expect(systemPromptOf(model, 1).endsWith("\n\nLoaded skills (1/10, 9 slots free):\n- plain")).toBe(true);
  });

  it("test_format_skills_list_with_resources: the resource summary and recommended tools", async () => {
    const { root } = fixture();
    const model = scriptedModel([[load("web-research")]]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    expect(systemPromptOf(model, 1)).toContain(
      "Loaded skills (1/10, 9 slots free):\n- web-research (2 scripts, 1 reference, 1 other; recommended tools: search, read_file)",
    );
  });

  it("keeps the catalog a stable prefix: a load changes only what follows it", async () => {
    const { root } = fixture();
    const model = scriptedModel([[load("plain")], [unload("plain")]]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [root] })], model });
    const [before, loaded, after] = [0, 1, 2].map((index) => systemPromptOf(model, index));
    const catalogEnd = before!.indexOf("Loaded skills:");
    expect(loaded!.slice(0, catalogEnd)).toBe(before!.slice(0, catalogEnd));
    expect(after).toBe(before);
  });
});

describe("backward compatibility (seed 001 §8.1)", () => {
  it("test_v1_skills_work_without_modification: a SKILL.md with only name and description loads", async () => {
    const { root } = fixture();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("minimal")]]),
    });
    expect(toolResults(result.messages).get("load-minimal")!.content).toContain("Do the minimal thing.");
    expect(result.skillsLoaded).toEqual(["minimal"]);
  });

  it("test_read_file_still_works_for_skills: reading SKILL.md directly neither fails nor loads it", async () => {
    const { root } = fixture();
    const readFile = tool(
      async ({ path }: { path: string }) => (await import("node:fs/promises")).readFile(path, "utf8"),
      {
        name: "read_file",
        description: "Read a file",
        schema: z.object({ path: z.string() }),
      },
    );
    const path = join(root, "plain", "SKILL.md");
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      tools: [readFile],
      model: scriptedModel([[{ name: "read_file", args: { path }, id: "read" }], [load("plain")]]),
    });
    expect(toolResults(result.messages).get("read")!.content).toContain("name: plain");
    expect(toolResults(result.messages).get("load-plain")!.status).not.toBe("error");
    expect(result.skillsLoaded).toEqual(["plain"]);
  });
});

describe("lifecycle through the agent loop (seed 001 §8.2)", () => {
  it("load → read a resource with read_file → unload → reload, with the prompt following each step", async () => {
    const { root } = fixture();
    const readFile = tool(
      async ({ path }: { path: string }) => (await import("node:fs/promises")).readFile(path, "utf8"),
      {
        name: "read_file",
        description: "Read a file",
        schema: z.object({ path: z.string() }),
      },
    );
    const resource = join(root, "web-research", "references", "api.md");
    const model = scriptedModel([
      [load("web-research", "l1")],
      [{ name: "read_file", args: { path: resource }, id: "r" }],
      [unload("web-research")],
      [load("web-research", "l2")],
    ]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      tools: [readFile],
      model,
    });
    expect(toolResults(result.messages).get("r")!.content).toBe("# API");
    expect(systemPromptOf(model, 1)).toContain("- web-research (");
    expect(systemPromptOf(model, 3)).toContain("Loaded skills: none (10 slots free).");
    expect(systemPromptOf(model, 4)).toContain("- web-research (");
    expect(result.skillsLoaded).toEqual(["web-research"]);
  });
});

describe("parallel tool calls (decision 2)", () => {
  for (const count of [2, 3, 5, 8, 12]) {
    it(`${count} loads in one AI message all take effect without a budget in the way`, async () => {
      const { root } = manySkills(12);
      const names = Array.from({ length: count }, (_, i) => `s${String(i + 1).padStart(2, "0")}`);
      const { result } = await runAgent({
        middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 12 })],
        model: scriptedModel([names.map((name) => load(name))]),
      });
      expect(result.skillsLoaded).toEqual(names);
      expect(Object.keys(result.skillResources).sort()).toEqual(names);
      for (const name of names) expect(toolResults(result.messages).get(`load-${name}`)!.status).not.toBe("error");
    });

    it(`${count} loads in one AI message never exceed a budget of 3, and each refused call says so`, async () => {
      const { root } = manySkills(12);
      const names = Array.from({ length: count }, (_, i) => `s${String(i + 1).padStart(2, "0")}`);
      const { result } = await runAgent({
        middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 3 })],
        model: scriptedModel([names.map((name) => load(name))]),
      });
      const accepted = names.slice(0, 3);
      expect(result.skillsLoaded).toEqual(accepted);
      for (const name of names.slice(3)) {
        expect(toolResults(result.messages).get(`load-${name}`)).toEqual({
          content:
            `Error: Cannot load skill '${name}'. Maximum number of simultaneously loaded skills reached (3). Currently loaded: (none). ` +
            `Loads earlier in this step took the remaining slot(s): ${accepted.join(", ")}. ` +
            'Use `unload_skill("skill-name")` to unload a skill you no longer need, then retry loading.',
          status: "error",
        });
      }
    });
  }

  it("an unload before a load in the same message frees the slot for it", async () => {
    const { root } = manySkills(3);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], maxLoadedSkills: 1 })],
      model: scriptedModel([[load("s01")], [unload("s01"), load("s02")]]),
    });
    expect(result.skillsLoaded).toEqual(["s02"]);
    expect(result.skillResources).toEqual({ s02: [] });
  });

  it("the same skill twice in one message is loaded once; loading and unloading one skill together is refused", async () => {
    const { root } = manySkills(2);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      model: scriptedModel([[load("s01", "a"), load("s01", "b"), load("s02", "c"), unload("s02", "d")]]),
    });
    expect(result.skillsLoaded).toEqual(["s01", "s02"]);
    expect(toolResults(result.messages).get("b")!.content).toBe(
      "Skill 's01' is already being loaded by another load_skill call in this step.",
    );
    expect(toolResults(result.messages).get("d")!.content).toBe(
      "Error: Skill 's02' is being loaded by another call in this step; try again in a later step if you still need to.",
    );
  });
});

describe("allowed-tools policy (seed 000 §6.1)", () => {
  const echo = (name: string) =>
    tool(async ({ text }: { text: string }) => `${name}:${text}`, {
      name,
      description: name,
      schema: z.object({ text: z.string() }),
    });
  const call = (name: string, id = name) => ({ name, args: { text: "hi" }, id });
  function policyTree() {
    const tree = skillTree({
      "restricted/SKILL.md": skillFile("restricted", "Uses only my_tool.", "allowed-tools: my_tool Bash(git:*)\n"),
      "free/SKILL.md": skillFile("free", "Declares no tools."),
    });
    trees.push(tree);
    return tree.root;
  }

  it("test_default_policy_is_recommend: without the option nothing is restricted", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root] })],
      tools: [echo("other_tool")],
      model: scriptedModel([[load("restricted")], [call("other_tool")]]),
    });
    expect(toolResults(result.messages).get("other_tool")).toEqual({ content: "other_tool:hi", status: "success" });
  });

  it("test_allowed_tools_recommend_mode_passthrough: recommend shows allowed-tools but blocks nothing", async () => {
    const root = policyTree();
    const model = scriptedModel([[load("restricted")], [call("other_tool")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "recommend" })],
      tools: [echo("other_tool")],
      model,
    });
    expect(toolResults(result.messages).get("other_tool")!.content).toBe("other_tool:hi");
    expect(systemPromptOf(model, 1)).toContain("- restricted (recommended tools: my_tool, Bash(git:*))");
  });

  it("test_allowed_tools_restrict_mode_allows_listed (Bash(git:*) allows the tool Bash)", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "restrict" })],
      tools: [echo("my_tool"), echo("Bash")],
      model: scriptedModel([[load("restricted")], [call("my_tool"), call("Bash")]]),
    });
    expect(toolResults(result.messages).get("my_tool")!.content).toBe("my_tool:hi");
    expect(toolResults(result.messages).get("Bash")!.content).toBe("Bash:hi");
  });

  it("test_allowed_tools_restrict_mode_blocks_unlisted: an error ToolMessage names the allowed set", async () => {
    const root = policyTree();
    const entries: SkillsLogEntry[] = [];
    const { result } = await runAgent({
      middleware: [
        createSkillsMiddleware({
          sources: [root],
          allowedToolsPolicy: "restrict",
          logger: (entry) => entries.push(entry),
        }),
      ],
      tools: [echo("other_tool")],
      model: scriptedModel([[load("restricted")], [call("other_tool")]]),
    });
    expect(toolResults(result.messages).get("other_tool")).toEqual({
      content:
        "Error: Tool 'other_tool' is not allowed while the loaded skills (restricted) restrict tools. Allowed: Bash, my_tool, and the skill and file-reading tools. Unload a skill with unload_skill to lift its restriction.",
      status: "error",
    });
    expect(entries.some((entry) => entry.event === "tool_restricted" && entry.tool === "other_tool")).toBe(true);
  });

  it("test_allowed_tools_whitelist_always_allowed: skill tools, file-reading tools and alwaysAllowedTools pass", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [
        createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "restrict", alwaysAllowedTools: ["notes"] }),
      ],
      tools: [echo("read_file"), echo("write_todos"), echo("notes")],
      model: scriptedModel([
        [load("restricted")],
        [call("read_file"), call("write_todos"), call("notes"), load("free")],
      ]),
    });
    const results = toolResults(result.messages);
    for (const id of ["read_file", "write_todos", "notes", "load-free"])
      expect(results.get(id)!.status).not.toBe("error");
    expect(result.skillsLoaded).toEqual(["restricted", "free"]);
  });

  it("test_allowed_tools_no_loaded_skills_passthrough: nothing loaded, nothing restricted", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "restrict" })],
      tools: [echo("other_tool")],
      model: scriptedModel([[call("other_tool", "before")]]),
    });
    expect(toolResults(result.messages).get("before")).toEqual({ content: "other_tool:hi", status: "success" });
  });

  it("test_allowed_tools_no_restrictions_defined_passthrough: loaded skills that declare no allowed-tools restrict nothing", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "restrict" })],
      tools: [echo("other_tool")],
      model: scriptedModel([[load("free")], [call("other_tool", "after")]]),
    });
    expect(toolResults(result.messages).get("after")).toEqual({ content: "other_tool:hi", status: "success" });
  });

  it("tries to get past restrict: a differently-cased name matches, a look-alike does not", async () => {
    const root = policyTree();
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], allowedToolsPolicy: "restrict" })],
      tools: [echo("MY_TOOL"), echo("my_tool2"), echo("bash_git")],
      model: scriptedModel([[load("restricted")], [call("MY_TOOL"), call("my_tool2"), call("bash_git")]]),
    });
    const results = toolResults(result.messages);
    expect(results.get("MY_TOOL")!.status).not.toBe("error");
    expect(results.get("my_tool2")!.status).toBe("error");
    expect(results.get("bash_git")!.status).toBe("error");
  });
});

describe("catalog freshness and observability (decision 4, seed 001 §11.5)", () => {
  it("sees a skill added between invocations of the same thread", async () => {
    const memory = createMemorySource({ files: { "/s/one/SKILL.md": skillFile("one") } });
    const middleware = createSkillsMiddleware({ sources: [memory] });
    const first = await runAgent({ middleware: [middleware], model: scriptedModel([]) });
    memory.write("/s/two/SKILL.md", skillFile("two"));
    const model = scriptedModel([[load("two")]]);
    const second = await runAgent({ middleware: [middleware], model, checkpointer: first.checkpointer });
    expect(systemPromptOf(model, 0)).toContain("- two: Use two for tests.");
    expect(second.result.skillsLoaded).toEqual(["two"]);
  });

  it("unloads a loaded skill that disappeared from its source", async () => {
    const memory = createMemorySource({ files: { "/s/one/SKILL.md": skillFile("one") } });
    const middleware = createSkillsMiddleware({ sources: [memory] });
    const first = await runAgent({ middleware: [middleware], model: scriptedModel([[load("one")]]) });
    expect(first.result.skillsLoaded).toEqual(["one"]);
    memory.remove("/s/one");
    const second = await runAgent({
      middleware: [middleware],
      model: scriptedModel([]),
      checkpointer: first.checkpointer,
    });
    expect(second.result.skillsLoaded).toEqual([]);
    expect(second.result.skillResources).toEqual({});
  });

  it("reports discovery, loads, unloads and refusals as structured entries and custom stream events", async () => {
    const tree = skillTree({ "good/SKILL.md": skillFile("good"), "bad/SKILL.md": "---\nname: bad\n---\n" });
    trees.push(tree);
    const entries: SkillsLogEntry[] = [];
    const middleware = createSkillsMiddleware({ sources: [tree.root], logger: (entry) => entries.push(entry) });
    const agent = createAgent({
      model: scriptedModel([[load("good"), load("nope")], [unload("good")]]),
      tools: [],
      middleware: [middleware],
    });
    const custom: Array<{ type: string; event: string }> = [];
    for await (const [mode, chunk] of await agent.stream(
      { messages: [{ role: "user", content: "go" }] },
      { streamMode: ["custom", "values"] },
    )) {
      if (mode === "custom") custom.push(chunk as { type: string; event: string });
    }
    // Parallel tool calls finish in any order, so the load and the refusal are compared as a set.
    expect(entries.map((entry) => `${entry.level} ${entry.event}`).sort()).toEqual([
      "error skill_diagnostic",
      "info skill_loaded",
      "info skill_unloaded",
      "info skills_discovered",
      "warn skill_refused",
    ]);
    expect(entries[1]).toMatchObject({
      file: join(tree.root, "bad", "SKILL.md"),
      code: "description-missing",
      severity: "error",
    });
    expect(custom.map((chunk) => `${chunk.type} ${chunk.event}`).sort()).toEqual([
      "skillset skill_loaded",
      "skillset skill_refused",
      "skillset skill_unloaded",
    ]);
  });
});
