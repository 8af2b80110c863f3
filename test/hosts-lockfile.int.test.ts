// The `lockfile` option on the hosts besides the LangChain middleware (test/langchain/lockfile.int.test.ts):
// skillset/ai in a real generateText loop, `skillset mcp --lock` (createSkillsMcpServer's option)
// over stdio for load_skill and a prompt, and skillset/node's text-protocol runner. Each refuses
// the skill whose installed file changed, naming it, and loads the others.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSkills } from "../src/ai.js";
import type { SkillsLogEntry } from "../src/index.js";
import { createLocalSkillRunner } from "../src/node.js";
import { scriptedModel, type MockModelClass } from "./ai/scripted-model.js";
import { callTool, rawRequest, stdioClient } from "./mcp/helpers.js";
import { lockedProject } from "./helpers/skills-lock-project.js";
import { lastUserMessage, scriptedComplete } from "./text-protocol/helpers.js";

let fixture: ReturnType<typeof lockedProject>;
afterEach(() => fixture.cleanup());

const refusal = (name: string, lockfile: string, detail: string) =>
  `Error: Skill '${name}' is refused: its files differ from ${lockfile} (${detail}). It cannot be used until it passes verification; continue without it and tell the user.`;

function changedProject() {
  fixture = lockedProject();
  appendFileSync(join(fixture.project, ".claude/skills/my-skill/a.txt"), "!");
  return {
    folders: [".claude/skills", ".agents/skills"].map((folder) => join(fixture.project, folder)),
    lockfile: join(fixture.project, "skills-lock.json"),
  };
}

describe("lockfile on every host", () => {
  it("skillset/ai: load_skill of the changed skill is an error naming it; the unchanged one loads", async () => {
    const { folders, lockfile } = changedProject();
    const events: SkillsLogEntry[] = [];
    const skills = createSkills({ sources: folders, lockfile, logger: (entry) => events.push(entry) });
    try {
      const { model } = scriptedModel(MockLanguageModelV3 as unknown as MockModelClass, [
        [
          ["load_skill", { skill_name: "my-skill" }, "a"],
          ["load_skill", { skill_name: "other" }, "b"],
        ],
        "ok",
      ]);
      const result = await generateText({
        model: model as never,
        prompt: "go",
        tools: skills.tools,
        prepareStep: skills.prepareStep({ instructions: "", tools: skills.tools }),
        stopWhen: stepCountIs(5),
      });
      const outputs = new Map(
        result.response.messages
          .filter((message) => message.role === "tool")
          .flatMap((message) =>
            (message.content as Array<{ toolCallId: string; output: { type: string; value: unknown } }>).map(
              (part) => [part.toolCallId, part.output] as const,
            ),
          ),
      );
      expect(outputs.get("a")).toEqual({ type: "error-text", value: refusal("my-skill", lockfile, "a.txt changed") });
      expect(String(outputs.get("b")!.value)).toContain('<skill name="other"');
      expect(events.filter((entry) => entry.event === "skill_unverified").map((entry) => entry.skill)).toEqual([
        "my-skill",
      ]);
    } finally {
      await skills.close();
    }
    const missing = join(fixture.project, "missing-lock.json");
    expect(() => createSkills({ sources: folders, lockfile: missing })).toThrow(
      `Cannot use the skills lockfile ${missing}: the file does not exist`,
    );
  });

  it("skillset mcp --lock: load_skill, the skill's prompt, its resources and skills/get all refuse the changed skill", async () => {
    const { folders, lockfile } = changedProject();
    const connected = await stdioClient([...folders, "--lock", lockfile]);
    try {
      expect(await callTool(connected.client, "load_skill", { skill_name: "my-skill" })).toEqual({
        text: refusal("my-skill", lockfile, "a.txt changed"),
        isError: true,
      });
      expect((await callTool(connected.client, "load_skill", { skill_name: "other" })).isError).toBe(false);
      await expect(connected.client.getPrompt({ name: "my-skill", arguments: {} })).rejects.toThrow(
        /Skill 'my-skill' is refused: its files differ from/,
      );
      const refused = `MCP error -32602: Skill 'my-skill' is refused: its files differ from ${lockfile} (a.txt changed)`;
      await expect(connected.client.readResource({ uri: "skill://my-skill/SKILL.md" })).rejects.toThrow(refused);
      await expect(connected.client.readResource({ uri: "skill://my-skill/a.txt" })).rejects.toThrow(refused);
      await expect(rawRequest(connected.client, "skills/get", { uri: "skill://my-skill/SKILL.md" })).rejects.toThrow(
        refused,
      );
      expect((await connected.client.readResource({ uri: "skill://other/SKILL.md" })).contents).toHaveLength(1);
    } finally {
      await connected.close();
    }
  });

  it("skillset/node's createLocalSkillRunner: <use_skill> of the changed skill comes back as the refusal", async () => {
    const { folders, lockfile } = changedProject();
    const scripted = scriptedComplete(["<use_skill>my-skill</use_skill>", "Done."]);
    const runner = createLocalSkillRunner({
      sources: folders,
      complete: scripted.complete,
      lockfile: { path: lockfile, mode: "refuse" },
    });
    try {
      const { trace } = await runner.run("go");
      expect(trace.loaded).toEqual([]);
      expect(lastUserMessage(scripted.calls[1]!)).toContain(
        `<skill_error name="my-skill">${refusal("my-skill", lockfile, "a.txt changed").slice("Error: ".length)}</skill_error>`,
      );
    } finally {
      runner.close();
    }
  });
});
