import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { AIMessage, createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createCatalog, type SkillMetadata } from "../../src/index.js";
import { createSkillsMiddleware } from "../../src/langchain.js";
import { createLocalSource } from "../../src/node.js";
import { corpusRepositories, SHARED_CORPUS as corpus, useSharedCorpus } from "../helpers/test-environment.js";
import { expectedSkillBody } from "./helpers.js";

// Every skill of the shared real-skills corpus, loaded through the middleware in a real
// createAgent loop: one recursive local source per repository folder, as a user would set it up.

// Without ../shared/corpus these tests skip, except under CI=true.
const withCorpus = useSharedCorpus();
const repoFolders = withCorpus ? corpusRepositories() : [];

const BATCH = 10; // parallel load_skill calls per AI message
const MAX_LOAD_RESULT_CHARS = 60_000;

/** The load result the middleware must produce for `skill`, given the resources it recorded in state. */
function expectedLoadResult(
  skill: SkillMetadata,
  resources: ReadonlyArray<{ type: string; relativePath: string }>,
): string {
  const content = readFileSync(skill.path, "utf8");
  const directory = skill.path.slice(0, skill.path.lastIndexOf("/"));
  const opening = `<skill name="${skill.name}" path="${skill.path}">\n`;
  const tail: string[] = [];
  if (resources.length > 0) {
    tail.push(
      `<skill_resources base="${directory}">`,
      ...resources.map((resource) => `- [${resource.type}] ${resource.relativePath}`),
      "</skill_resources>",
    );
    tail.push(
      `Paths above are relative to ${directory}; read them with \`read_skill_resource\` when the instructions call for them.`,
    );
  }
  if (skill.allowedTools.length > 0)
    tail.push(`Recommended tools while this skill is active: ${skill.allowedTools.join(", ")}`);
  const closing = `</skill>${tail.length > 0 ? `\n${tail.join("\n")}` : ""}`;
  const room = MAX_LOAD_RESULT_CHARS - opening.length - closing.length - 200;
  const body = expectedSkillBody(content, room, `\`SKILL.md\` of skill '${skill.name}'`, "read_skill_resource");
  return `${opening}${body}\n${closing}`;
}

describe.skipIf(!withCorpus)("the real-skills corpus through createSkillsMiddleware in a createAgent loop", () => {
  it("loads all 174 skills with batches of parallel load_skill calls; every load succeeds and is recorded in call order", async () => {
    expect(repoFolders.map((folder) => folder.slice(corpus.length + 1))).toEqual([
      "K-Dense-AI+claude-scientific-skills",
      "anthropics+skills",
      "obra+superpowers",
      "openai+skills",
      "vercel-labs+agent-skills",
    ]);
    // The names and paths to load, from the same sources on their own (no middleware).
    const snapshot = await createCatalog(
      repoFolders.map((path) => createLocalSource({ path, recursive: true, watch: false })),
    ).refresh();
    expect(snapshot.skills).toHaveLength(174);
    expect(snapshot.shadowed.map((skill) => skill.path.slice(corpus.length + 1))).toEqual([
      "anthropics+skills/skills/skill-creator/SKILL.md",
    ]);
    // Call order: by path, last first, so it differs from the catalog's name order.
    const order = [...snapshot.skills].sort((a, b) => (a.path < b.path ? 1 : a.path > b.path ? -1 : 0));
    expect(order.map((skill) => skill.name)).not.toEqual(snapshot.skills.map((skill) => skill.name));

    // Each AI message is built by hand with empty content: respondWithTools would copy the whole
    // conversation into every AI message's content, which doubles the history at each step.
    const model = fakeModel();
    const callIds = new Map<string, string>();
    for (let start = 0; start < order.length; start += BATCH) {
      const batch = order.slice(start, start + BATCH).map((skill, index) => {
        const id = `load-${start + index}`;
        callIds.set(id, skill.name);
        return { name: "load_skill", args: { skill_name: skill.name }, id, type: "tool_call" as const };
      });
      model.respond(new AIMessage({ content: "", tool_calls: batch }));
    }
    model.respond(new AIMessage("all loaded"));
    const batches = Math.ceil(order.length / BATCH);
    expect(batches).toBe(18);

    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        createSkillsMiddleware({ sources: repoFolders, recursive: true, maxLoadedSkills: 200, catalogBudget: false }),
      ],
    });
    const result = await agent.invoke(
      { messages: [{ role: "user", content: "Load every skill." }] },
      { recursionLimit: 100 },
    );

    expect(model.callCount).toBe(batches + 1);
    const names = order.map((skill) => skill.name);
    expect(new Set(names).size).toBe(174);
    expect(result.skillsLoaded).toEqual(names);
    expect(Object.keys(result.skillResources).sort()).toEqual([...names].sort());
    // The middleware's catalog is the same 174 skills (openai's skill-creator, not anthropics'),
    // and only its version is in the thread's state.
    expect(result).not.toHaveProperty("skillsMetadata");
    expect(snapshot.get("skill-creator")!.path).toBe(
      join(corpus, "openai+skills/skills/.system/skill-creator/SKILL.md"),
    );

    const tools = result.messages.filter((message: BaseMessage) => message.type === "tool") as Array<
      BaseMessage & { tool_call_id: string; status?: string }
    >;
    expect(tools).toHaveLength(174);
    expect(tools.map((message) => callIds.get(message.tool_call_id))).toEqual(names);
    const byName = new Map(snapshot.skills.map((skill) => [skill.name, skill]));
    let cut = 0;
    for (const message of tools) {
      const skill = byName.get(callIds.get(message.tool_call_id)!)!;
      expect(message.name).toBe("load_skill");
      expect(message.status).not.toBe("error");
      expect(message.text.startsWith(`<skill name="${skill.name}"`)).toBe(true);
      const content = readFileSync(skill.path, "utf8");
      if (message.text.includes(content)) expect(message.text.length).toBeLessThanOrEqual(MAX_LOAD_RESULT_CHARS);
      else cut++;
      expect(message.text).toBe(expectedLoadResult(skill, result.skillResources[skill.name]!));
    }
    // Only the two SKILL.md files too long for one load result are cut (claude-api, latex-posters).
    expect(cut).toBe(2);

    // Every model call saw the whole catalog; the last one saw all 174 loaded.
    const firstPrompt = model.calls[0]!.messages[0]!.text;
    for (const skill of snapshot.skills) expect(firstPrompt).toContain(`\n- ${skill.name}: `);
    expect(firstPrompt.endsWith("\n\nLoaded skills: none (200 slots free).")).toBe(true);
    const lastPrompt = model.calls[batches]!.messages[0]!.text;
    expect(lastPrompt).toContain("\n\nLoaded skills (174/200, 26 slots free):\n");
    expect(
      lastPrompt
        .match(/^- \S+( \(.*\))?$/gm)!
        .slice(-174)
        .map((line) => line.slice(2).split(" ")[0]),
    ).toEqual(names);
  });
});
