import { join } from "node:path";
import { fakeModel } from "@langchain/core/testing";
import {
  type BackendRuntime,
  createDeepAgent,
  FilesystemBackend,
  StateBackend,
  type SkillsMiddlewareOptions as DeepagentsSkillsMiddlewareOptions,
} from "deepagents";
import { AIMessage, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkillsMiddleware, withSkillset } from "../../src/langchain.js";
import type { SkillsBackend } from "../../src/index.js";
import { tempTree } from "../helpers/skill-tree.js";
import { load, runAgent, scriptedModel, skillFile, systemPromptOf, toolResults } from "./helpers.js";

// What deepagents' own skills tests expect of a skills middleware, run against ours through
// createAgent. `deepagentsMockBackend` answers as the mock backend of deepagents' tests does
// (libs/deepagents/src/middleware/test.ts): `ls` lists names relative to the folder asked
// (`web-research/`), throws for any folder it was not told about, and `downloadFiles` serves files.

type Entry = { name: string; type: "file" | "directory" };

function deepagentsMockBackend(config: {
  files: Record<string, string>;
  directories: Record<string, Entry[]>;
}): SkillsBackend & { listed: string[] } {
  const listed: string[] = [];
  return {
    listed,
    async downloadFiles(paths: string[]) {
      return paths.map((path) => {
        const content = config.files[path];
        return content === undefined
          ? { path, error: "file_not_found", content: null }
          : { path, content: new TextEncoder().encode(content), error: null };
      });
    },
    async ls(path: string) {
      listed.push(path);
      const entries = config.directories[path];
      if (!entries) throw new Error(`Directory not found: ${path}`);
      return {
        files: entries.map((entry) => ({
          path: entry.name + (entry.type === "directory" ? "/" : ""),
          is_dir: entry.type === "directory",
        })),
      };
    },
  };
}

const WEB_RESEARCH = skillFile(
  "web-research",
  "Structured approach to conducting thorough web research",
  "",
  "# Web Research Skill\n\n## When to Use\n- User asks you to research a topic",
);

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("drop-in for deepagents' skills middleware", () => {
  it("a backend that lists names relative to the folder (web-research/), and cannot list the skill folder: the skill loads", async () => {
    const backend = deepagentsMockBackend({
      files: { "/skills/user/web-research/SKILL.md": WEB_RESEARCH },
      directories: { "/skills/user/": [{ name: "web-research", type: "directory" }] },
    });
    const model = scriptedModel([[load("web-research")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ backend, sources: ["/skills/user/"] })],
      model,
    });
    expect(systemPromptOf(model, 0)).toContain(
      "- web-research: Structured approach to conducting thorough web research",
    );
    const loaded = toolResults(result.messages).get("load-web-research")!;
    expect(loaded.status).not.toBe("error");
    expect(loaded.content).toContain("# Web Research Skill");
    expect(result.skillsLoaded).toEqual(["web-research"]);
    // The skill folder was asked for once per scan (and refused); SKILL.md was then read directly.
    expect(backend.listed.slice(0, 2)).toEqual(["/skills/user/", "/skills/user/web-research/"]);
  });

  it("a source that points at one skill folder, listed by names (SKILL.md)", async () => {
    const backend = deepagentsMockBackend({
      files: { "/skills/web-research/SKILL.md": WEB_RESEARCH },
      directories: { "/skills/web-research/": [{ name: "SKILL.md", type: "file" }] },
    });
    const model = scriptedModel([[load("web-research")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ backend, sources: ["/skills/web-research/"] })],
      model,
    });
    expect(toolResults(result.messages).get("load-web-research")!.content).toContain("# Web Research Skill");
  });

  it("a folder the backend cannot list and with no SKILL.md is no skill and no error", async () => {
    const backend = deepagentsMockBackend({
      files: { "/skills/user/web-research/SKILL.md": WEB_RESEARCH },
      directories: {
        "/skills/user/": [
          { name: "web-research", type: "directory" },
          { name: "notes", type: "directory" },
        ],
      },
    });
    const events: Array<{ event: string; message: string }> = [];
    const model = scriptedModel([[load("web-research")]]);
    await runAgent({
      middleware: [
        createSkillsMiddleware({ backend, sources: ["/skills/user/"], logger: (entry) => events.push(entry) }),
      ],
      model,
    });
    expect(events.filter((entry) => entry.event === "skill_diagnostic")).toEqual([]);
    expect(systemPromptOf(model, 0)).toContain("- web-research: ");
    expect(systemPromptOf(model, 0)).not.toContain("notes");
  });

  it("a backend whose skill folder lists as empty and which serves SKILL.md through read() only: the skill loads", async () => {
    // The backend of deepagents' "should use backend.read() fallback when downloadFiles is not
    // available" (libs/deepagents/src/middleware/skills.test.ts): ls lists the source's folders and
    // every other folder as empty, read() answers { content } or { error }, no downloadFiles.
    const backend: SkillsBackend = {
      async ls(path: string) {
        return path === "/skills/user/" ? { files: [{ path: "web-research/", is_dir: true }] } : { files: [] };
      },
      async read(path: string) {
        return path === "/skills/user/web-research/SKILL.md"
          ? { content: WEB_RESEARCH }
          : { error: "Error: file not found" };
      },
    };
    const model = scriptedModel([[load("web-research")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ backend, sources: ["/skills/user/"] })],
      model,
    });
    expect(systemPromptOf(model, 0)).toContain(
      "- web-research: Structured approach to conducting thorough web research",
    );
    expect(toolResults(result.messages).get("load-web-research")!.content).toContain("# Web Research Skill");
    expect(result.skillsLoaded).toEqual(["web-research"]);
  });

  it("an empty folder the backend lists, with no SKILL.md to read, is no skill and no error", async () => {
    const backend: SkillsBackend = {
      async ls(path: string) {
        return path === "/skills/user/" ? { files: [{ path: "empty/", is_dir: true }] } : { files: [] };
      },
      async read() {
        return { error: "Error: file not found" };
      },
    };
    const events: Array<{ event: string }> = [];
    const model = scriptedModel([]);
    await runAgent({
      middleware: [
        createSkillsMiddleware({ backend, sources: ["/skills/user/"], logger: (entry) => events.push(entry) }),
      ],
      model,
    });
    expect(events.filter((entry) => entry.event === "skill_diagnostic")).toEqual([]);
  });

  it("Windows-style backend paths (C:\\skills\\user, no trailing backslash): the skill is found and loads", async () => {
    const backend = deepagentsMockBackend({
      files: { "C:\\skills\\user\\web-research\\SKILL.md": WEB_RESEARCH },
      directories: { "C:\\skills\\user\\": [{ name: "web-research", type: "directory" }] },
    });
    const model = scriptedModel([[load("web-research")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ backend, sources: ["C:\\skills\\user"] })],
      model,
    });
    const loaded = toolResults(result.messages).get("load-web-research")!;
    expect(loaded.status).not.toBe("error");
    expect(loaded.content).toContain("# Web Research Skill");
    expect(loaded.content).toContain("C:\\skills\\user\\web-research\\SKILL.md");
  });

  it("Windows-style backend paths: a resource of the skill is read with the same separator", async () => {
    const backend = deepagentsMockBackend({
      files: {
        "C:\\skills\\web-research\\SKILL.md": WEB_RESEARCH,
        "C:\\skills\\web-research\\references\\sources.md": "TRUSTED SOURCES\n",
      },
      directories: {
        "C:\\skills\\": [{ name: "web-research", type: "directory" }],
        "C:\\skills\\web-research\\": [
          { name: "SKILL.md", type: "file" },
          { name: "references", type: "directory" },
        ],
        "C:\\skills\\web-research\\references\\": [{ name: "sources.md", type: "file" }],
      },
    });
    const model = scriptedModel([
      [load("web-research")],
      [
        {
          name: "read_skill_resource",
          args: { skill_name: "web-research", path: "references/sources.md" },
          id: "read-1",
        },
      ],
    ]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ backend, sources: ["C:\\skills\\"], readResourceTool: true })],
      model,
    });
    const results = toolResults(result.messages);
    expect(results.get("load-web-research")!.content).toContain("- [reference] references/sources.md");
    expect(results.get("read-1")!.content).toContain("TRUSTED SOURCES");
    expect(results.get("read-1")!.status).not.toBe("error");
  });
});

describe("drop-in for deepagents: options and skills written during a run", () => {
  const freshSkill = skillFile(
    "fresh",
    "Use fresh for skills the agent wrote itself.",
    "",
    "# Fresh\n\nFresh instructions.",
  );

  it("options typed for deepagents (readonly sources, its backend and factory types) are accepted as they are", () => {
    const options: DeepagentsSkillsMiddlewareOptions = {
      backend: new StateBackend(),
      sources: Object.freeze(["/skills/"]),
    };
    const factory: DeepagentsSkillsMiddlewareOptions = {
      backend: (runtime: BackendRuntime) => new StateBackend(runtime),
      sources: ["/skills/"] as const,
    };
    expect(createSkillsMiddleware(options).name).toBe("SkillsMiddleware");
    expect(createSkillsMiddleware(factory).name).toBe("SkillsMiddleware");
  });

  it("sources: [] is accepted; the prompt says there are no skills", async () => {
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [] })], model });
    expect(systemPromptOf(model, 0)).toContain("(No skills are available.)");
  });

  it("an absolute source that does not exist here, with no backend, is an error at creation that names it and the fix", () => {
    expect(() => createSkillsMiddleware({ sources: ["/skills/"] })).toThrow(
      "createSkillsMiddleware: the source '/skills/' does not exist on this machine and no backend is given. If it is a path on a deepagents backend (StateBackend, StoreBackend, …), pass that backend: createSkillsMiddleware({ sources, backend }), or switch with createDeepAgent(withSkillset(params)). If it is a local folder, create it first.",
    );
    // A relative folder (or one under ~) may be created later: no error, as before.
    expect(createSkillsMiddleware({ sources: ["./skills-not-here-yet"] }).name).toBe("SkillsMiddleware");
  });

  for (const [name, setup] of Object.entries({
    "FilesystemBackend (virtual mode)": () => {
      const tree = tempTree("skillset-fresh-");
      cleanups.push(() => tree.cleanup());
      tree.write("skills/old/SKILL.md", skillFile("old"));
      return { backend: new FilesystemBackend({ rootDir: tree.root, virtualMode: true }) as never, input: {} };
    },
    "the default StateBackend": () => {
      const now = new Date().toISOString();
      return {
        backend: undefined,
        input: {
          files: {
            "/skills/old/SKILL.md": {
              content: skillFile("old"),
              mimeType: "text/markdown",
              created_at: now,
              modified_at: now,
            },
          },
        },
      };
    },
  })) {
    it(`${name}: a skill the agent writes is listed at the next model call, and loads in the same run`, async () => {
      const { backend, input } = setup();
      const model = fakeModel()
        .respondWithTools([
          { name: "write_file", args: { file_path: "/skills/fresh/SKILL.md", content: freshSkill }, id: "write-1" },
        ])
        .respondWithTools([{ name: "load_skill", args: { skill_name: "fresh" }, id: "load-1" }])
        .respond(new AIMessage("done"));
      const agent = createDeepAgent(withSkillset({ model, skills: ["/skills/"], ...(backend ? { backend } : {}) }));
      const result = await agent.invoke({
        messages: [{ role: "user", content: "write a skill, then use it" }],
        ...input,
      });
      expect(systemPromptOf(model, 0)).not.toContain("fresh");
      expect(systemPromptOf(model, 1)).toContain("\n- fresh: Use fresh for skills the agent wrote itself.\n");
      const loaded = toolResults(result.messages).get("load-1")!;
      expect(loaded.status).not.toBe("error");
      expect(loaded.content).toContain("Fresh instructions.");
      expect(systemPromptOf(model, 2)).toContain("Loaded skills (1/10, 9 slots free):\n- fresh");
      expect(result.skillsLoaded).toEqual(["fresh"]);
    });
  }

  it("a skill written by a tool the middleware does not watch is still found by load_skill (re-scan on a miss), and listed as loaded next", async () => {
    const tree = tempTree("skillset-fresh-");
    cleanups.push(() => tree.cleanup());
    tree.write("skills/old/SKILL.md", skillFile("old"));
    const save = tool(
      async ({ text }: { text: string }) => {
        tree.write("skills/fresh/SKILL.md", text);
        return "saved";
      },
      { name: "save_note", description: "Saves a note.", schema: z.object({ text: z.string() }) },
    );
    const model = scriptedModel([
      [{ name: "save_note", args: { text: freshSkill }, id: "save-1" }],
      [load("fresh")],
      "done",
    ]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [join(tree.root, "skills")] })],
      model,
      tools: [save],
    });
    expect(systemPromptOf(model, 1)).not.toContain("- fresh:");
    expect(toolResults(result.messages).get("load-fresh")!.content).toContain("Fresh instructions.");
    expect(systemPromptOf(model, 2)).toContain("\n- fresh: Use fresh for skills the agent wrote itself.\n");
    expect(systemPromptOf(model, 2)).toContain("Loaded skills (1/10, 9 slots free):\n- fresh");
  });
});
