// A LangChain agent (the real createAgent loop, a scripted fake model) whose skills come from an
// MCP server: `skillset mcp` over stdio, read through mcpSkillSource by the skills middleware.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillsMiddleware } from "../../src/langchain.js";
import { connectMcpServer, mcpSkillSource } from "../../src/mcp.js";
import type { SkillSource } from "../../src/index.js";
import { tempTree } from "../helpers/skill-tree.js";
import { load, runAgent, scriptedModel, systemPromptOf, toolResults } from "../langchain/helpers.js";
import { CLI } from "./helpers.js";

describe("an agent with skills from an MCP server", () => {
  let tree: ReturnType<typeof tempTree>;
  beforeAll(() => {
    tree = tempTree("skillset-agent-mcp-");
  });
  let source: SkillSource;

  beforeAll(async () => {
    tree.write(
      "skills/release-notes/SKILL.md",
      "---\nname: release-notes\ndescription: Drafts release notes from git history.\n---\n\nGroup the commits by type, using references/format.md.\n",
    );
    tree.write("skills/release-notes/references/format.md", "## Features\n## Fixes\n");
    source = mcpSkillSource({
      client: await connectMcpServer({
        command: process.execPath,
        args: [CLI, "mcp", `${tree.root}/skills`],
        stderr: "ignore",
      }),
      label: "team",
    });
  });
  afterAll(() => {
    source.close?.();
    tree.cleanup();
  });

  it("sees the served skill in its catalog, loads it and reads one of its resources", async () => {
    const model = scriptedModel([
      [load("team:release-notes")],
      [
        {
          name: "read_skill_resource",
          args: { skill_name: "team:release-notes", path: "references/format.md" },
          id: "read-1",
        },
      ],
    ]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [source], readResourceTool: true })],
      model,
      input: "Write the release notes for v2.",
    });
    expect(systemPromptOf(model, 0)).toContain("- team:release-notes: Drafts release notes from git history.");
    const results = toolResults(result.messages);
    expect(results.get("load-team:release-notes")!.status).toBeUndefined();
    expect(results.get("load-team:release-notes")!.content).toContain(
      '<skill name="team:release-notes" path="skill://release-notes/SKILL.md">',
    );
    expect(results.get("load-team:release-notes")!.content).toContain(
      "Group the commits by type, using references/format.md.",
    );
    expect(results.get("read-1")).toEqual({
      content: "[references/format.md: lines 1-2 of 2]\n## Features\n## Fixes",
      status: "success",
    });
    expect(result.skillsLoaded).toEqual(["team:release-notes"]);
  });
});
