import { afterEach, describe, expect, it } from "vitest";
import { createSkillsMiddleware } from "../../src/langchain.js";
import type { SkillsBackend } from "../../src/index.js";
import { load, runAgent, scriptedModel, skillFile, systemPromptOf, toolResults } from "./helpers.js";

// What deepagents' own skills tests expect of a skills middleware, run against ours through
// createAgent. `deepagentsMockBackend` answers as the mock backend of deepagents' tests does
// (libs/deepagents/src/middleware/test.ts): `ls` lists names relative to the folder asked
// (`web-research/`), throws for any folder it was not told about, and `downloadFiles` serves files.

type Entry = { name: string; type: "file" | "directory" };

function deepagentsMockBackend(config: { files: Record<string, string>; directories: Record<string, Entry[]> }): SkillsBackend & { listed: string[] } {
  const listed: string[] = [];
  return {
    listed,
    async downloadFiles(paths: string[]) {
      return paths.map((path) => {
        const content = config.files[path];
        return content === undefined ? { path, error: "file_not_found", content: null } : { path, content: new TextEncoder().encode(content), error: null };
      });
    },
    async ls(path: string) {
      listed.push(path);
      const entries = config.directories[path];
      if (!entries) throw new Error(`Directory not found: ${path}`);
      return { files: entries.map((entry) => ({ path: entry.name + (entry.type === "directory" ? "/" : ""), is_dir: entry.type === "directory" })) };
    },
  };
}

const WEB_RESEARCH = skillFile("web-research", "Structured approach to conducting thorough web research", "", "# Web Research Skill\n\n## When to Use\n- User asks you to research a topic");

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
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ backend, sources: ["/skills/user/"] })], model });
    expect(systemPromptOf(model, 0)).toContain("- web-research: Structured approach to conducting thorough web research");
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
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ backend, sources: ["/skills/web-research/"] })], model });
    expect(toolResults(result.messages).get("load-web-research")!.content).toContain("# Web Research Skill");
  });

  it("a folder the backend cannot list and with no SKILL.md is no skill and no error", async () => {
    const backend = deepagentsMockBackend({
      files: { "/skills/user/web-research/SKILL.md": WEB_RESEARCH },
      directories: { "/skills/user/": [{ name: "web-research", type: "directory" }, { name: "notes", type: "directory" }] },
    });
    const events: Array<{ event: string; message: string }> = [];
    const model = scriptedModel([[load("web-research")]]);
    await runAgent({ middleware: [createSkillsMiddleware({ backend, sources: ["/skills/user/"], logger: (entry) => events.push(entry) })], model });
    expect(events.filter((entry) => entry.event === "skill_diagnostic")).toEqual([]);
    expect(systemPromptOf(model, 0)).toContain("- web-research: ");
    expect(systemPromptOf(model, 0)).not.toContain("notes");
  });

  it("Windows-style backend paths (C:\\skills\\user, no trailing backslash): the skill is found and loads", async () => {
    const backend = deepagentsMockBackend({
      files: { "C:\\skills\\user\\web-research\\SKILL.md": WEB_RESEARCH },
      directories: { "C:\\skills\\user\\": [{ name: "web-research", type: "directory" }] },
    });
    const model = scriptedModel([[load("web-research")]]);
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ backend, sources: ["C:\\skills\\user"] })], model });
    const loaded = toolResults(result.messages).get("load-web-research")!;
    expect(loaded.status).not.toBe("error");
    expect(loaded.content).toContain("# Web Research Skill");
    expect(loaded.content).toContain("C:\\skills\\user\\web-research\\SKILL.md");
  });

  it("Windows-style backend paths: a resource of the skill is read with the same separator", async () => {
    const backend = deepagentsMockBackend({
      files: { "C:\\skills\\web-research\\SKILL.md": WEB_RESEARCH, "C:\\skills\\web-research\\references\\sources.md": "TRUSTED SOURCES\n" },
      directories: {
        "C:\\skills\\": [{ name: "web-research", type: "directory" }],
        "C:\\skills\\web-research\\": [
          { name: "SKILL.md", type: "file" },
          { name: "references", type: "directory" },
        ],
        "C:\\skills\\web-research\\references\\": [{ name: "sources.md", type: "file" }],
      },
    });
    const model = scriptedModel([[load("web-research")], [{ name: "read_skill_resource", args: { skill_name: "web-research", path: "references/sources.md" }, id: "read-1" }]]);
    const { result } = await runAgent({ middleware: [createSkillsMiddleware({ backend, sources: ["C:\\skills\\"], readResourceTool: true })], model });
    const results = toolResults(result.messages);
    expect(results.get("load-web-research")!.content).toContain("- [reference] references/sources.md");
    expect(results.get("read-1")!.content).toContain("TRUSTED SOURCES");
    expect(results.get("read-1")!.status).not.toBe("error");
  });
});
