import { join } from "node:path";
import { fakeModel } from "@langchain/core/testing";
import { createDeepAgent } from "deepagents";
import { AIMessage, type BaseMessage, createAgent, ToolMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import type { SkillsLogEntry } from "../../src/index.js";
import { createSkillsMiddleware, withSkillset } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";
import { load, recordBoundTools, runAgent, scriptedModel, skillFile, systemPromptOf, toolResults } from "./helpers.js";

// Every tool the prompt and the load results point to must exist in the agent: the README's plain
// createAgent has no read_file, a deep agent has one over the skills' backend (issue 23 §2).

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const GUIDE = "# Guide\n\nColumns: id, amount.\n";

function library(body = "# CSV\n\nRead references/guide.md first.") {
  const tree = tempTree("skillset-naming-");
  cleanups.push(() => tree.cleanup());
  tree.write("skills/csv/SKILL.md", skillFile("csv", "Use csv for data files.", "", body));
  tree.write("skills/csv/references/guide.md", GUIDE);
  return tree;
}

/** The tool the catalog's footer tells the model to read resources with. */
function namedReadTool(prompt: string): string | undefined {
  return /Read a loaded skill's resources with `([^`]+)`/.exec(prompt)?.[1];
}

function stateFiles(files: Record<string, string>) {
  const now = new Date().toISOString();
  return Object.fromEntries(
    Object.entries(files).map(([path, content]) => [
      path,
      { content, mimeType: "text/markdown", created_at: now, modified_at: now },
    ]),
  );
}

describe("the README's plain createAgent (tools: [])", () => {
  it("names read_skill_resource, offers it, and reading a resource with it returns the file", async () => {
    const tree = library();
    const model = scriptedModel([
      [load("csv")],
      [{ name: "read_skill_resource", args: { skill_name: "csv", path: "references/guide.md" }, id: "read-1" }],
      "done",
    ]);
    const bound = recordBoundTools(model);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [join(tree.root, "skills")] })],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "What is in data.csv?" }] });
    expect(namedReadTool(systemPromptOf(model, 0))).toBe("read_skill_resource");
    expect(bound[0]).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
    const results = toolResults(result.messages);
    expect(results.get("load-csv")!.content).toContain(
      `read them with \`read_skill_resource\` when the instructions call for them.`,
    );
    expect(results.get("read-1")).toEqual({
      content: `[references/guide.md: lines 1-3 of 3]\n${GUIDE.trimEnd()}`,
      status: "success",
    });
  });

  it("a SKILL.md cut for length says to read the rest of it with read_skill_resource, and that read works", async () => {
    const lines = Array.from({ length: 4000 }, (_, index) => `Step ${index}: keep going with the csv steps.`);
    const tree = library(lines.join("\n"));
    const model = scriptedModel([[load("csv")]]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [join(tree.root, "skills")] })],
      model,
    });
    const loaded = toolResults(result.messages).get("load-csv")!.content;
    const note =
      /\[… SKILL\.md continues after line (\d+): read `SKILL\.md` of skill 'csv' with `read_skill_resource` from line offset (\d+)\.\]/.exec(
        loaded,
      );
    expect(note?.[1]).toBe(note?.[2]);
    const offset = Number(note![2]);
    const next = scriptedModel([
      [load("csv")],
      [{ name: "read_skill_resource", args: { skill_name: "csv", path: "SKILL.md", offset, limit: 1 }, id: "rest" }],
      "done",
    ]);
    const again = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [join(tree.root, "skills")] })],
      model: next,
    });
    const rest = toolResults(again.result.messages).get("rest")!;
    expect(rest.status).toBe("success");
    // The first line the load left out (SKILL.md has 5 frontmatter lines and a blank one before the body).
    expect(rest.content).toContain(lines[offset - 5]!);
  });

  it("readResourceTool: false names read_file, which this agent lacks: a warning, once", async () => {
    const tree = library();
    const logs: SkillsLogEntry[] = [];
    const model = scriptedModel([[load("csv")], "done"]);
    await runAgent({
      middleware: [
        createSkillsMiddleware({
          sources: [join(tree.root, "skills")],
          readResourceTool: false,
          logger: (entry) => logs.push(entry),
        }),
      ],
      model,
    });
    expect(namedReadTool(systemPromptOf(model, 0))).toBe("read_file");
    expect(logs.filter((entry) => entry.event === "resource_tool_missing")).toEqual([
      {
        level: "warn",
        event: "resource_tool_missing",
        message: `The skills prompt tells the model to use 'read_file' for skill files, but this agent has no such tool; give the agent that tool, or leave readResourceTool at "auto"`,
        tool: "read_file",
      },
    ]);
  });

  it("with no sources it says only that there are no skills: it has no tool to write one", async () => {
    const model = scriptedModel([]);
    await runAgent({ middleware: [createSkillsMiddleware({ sources: [] })], model });
    expect(systemPromptOf(model, 0)).toContain("\n\n(No skills are available.)\n\nLoaded skills: none");
  });
});

describe("a deep agent, whose read_file sees the skills' backend", () => {
  it("names its read_file, withholds read_skill_resource from the model, and read_file reads the resource", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "load_skill", args: { skill_name: "csv" }, id: "load-1" }])
      .respondWithTools([{ name: "read_file", args: { file_path: "/skills/csv/references/guide.md" }, id: "read-1" }])
      .respond(new AIMessage("done"));
    const bound = recordBoundTools(model as never);
    const agent = createDeepAgent(withSkillset({ model, skills: ["/skills/"] }));
    const files = stateFiles({
      "/skills/csv/SKILL.md": skillFile("csv", "Use csv for data files."),
      "/skills/csv/references/guide.md": GUIDE,
    });
    const result = await agent.invoke({
      messages: [{ role: "user", content: "What is in data.csv?" }],
      files,
    } as never);
    expect(namedReadTool(systemPromptOf(model, 0))).toBe("read_file");
    expect(bound[0]).toContain("read_file");
    expect(bound[0]).not.toContain("read_skill_resource");
    const results = toolResults(result.messages);
    expect(results.get("load-1")!.content).toContain("read them with `read_file` when the instructions call for them.");
    const read = result.messages.find(
      (message: BaseMessage) => ToolMessage.isInstance(message) && message.tool_call_id === "read-1",
    ) as ToolMessage;
    expect(read.status).toBe("success");
    expect(read.text).toContain("Columns: id, amount.");
  });

  it("with no skills yet, says where it can create them (deepagents' skill-creator flow)", async () => {
    const model = fakeModel().respond(new AIMessage("done"));
    await createDeepAgent(withSkillset({ model, skills: ["/skills/user/", "/skills/project/"] })).invoke({
      messages: [{ role: "user", content: "hi" }],
    });
    expect(systemPromptOf(model, 0)).toContain(
      "(No skills are available yet. You can create skills in `/skills/user/` or `/skills/project/`: a folder per skill, named as the skill, with its instructions in a `SKILL.md`.)",
    );
  });
});
