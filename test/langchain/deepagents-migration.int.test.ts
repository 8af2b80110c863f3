import type { BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore } from "@langchain/langgraph";
import { CompositeBackend, createDeepAgent, FilesystemBackend, StateBackend, StoreBackend } from "deepagents";
import { AIMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { withSkillset } from "../../src/langchain.js";
import { tempTree } from "../helpers/skill-tree.js";

// deepagents' documented skills setups, run as deepagents ships them and then with the one change
// `createDeepAgent(withSkillset(params))`: the same skills, now from skillset's middleware (its
// catalog lines, `load_skill`), and none of deepagents' skills middleware left anywhere.

type FakeModel = ReturnType<typeof fakeModel>;
const USER = { role: "user", content: "go" } as const;
const skillText = (name: string) =>
  `---\nname: ${name}\ndescription: Use ${name} for migration tests.\n---\n\n# ${name}\n\nInstructions of ${name}.\n`;
const now = new Date().toISOString();
const fileData = (content: string) => ({ content, mimeType: "text/markdown", created_at: now, modified_at: now });

const trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function systemText(model: FakeModel, index: number): string {
  const first = model.calls[index]!.messages[0]!;
  expect(first.type).toBe("system");
  return first.text;
}

function toolTexts(messages: readonly BaseMessage[]): Record<string, string> {
  return Object.fromEntries(
    messages
      .filter((message) => message.type === "tool")
      .map((message) => [(message as BaseMessage & { tool_call_id: string }).tool_call_id, message.text]),
  );
}

/** What deepagents' own skills middleware shows for a skill, and what skillset's shows. */
const deepagentsLine = (name: string) => `- **${name}**: Use ${name} for migration tests.`;
const skillsetLine = (name: string) => `\n- ${name}: Use ${name} for migration tests.\n`;

interface Setup {
  /** deepagents 1.14.1 finds no skill through a StoreBackend factory (skillset does). */
  deepagentsFinds?: false;
  params: () => Promise<{ params: Parameters<typeof createDeepAgent>[0]; input?: Record<string, unknown> }>;
}

const setups: Record<string, Setup> = {
  "FilesystemBackend in virtual mode": {
    params: async () => {
      const tree = tempTree("skillset-migrate-");
      trees.push(tree);
      tree.write("skills/alpha/SKILL.md", skillText("alpha"));
      return {
        params: { backend: new FilesystemBackend({ rootDir: tree.root, virtualMode: true }), skills: ["/skills/"] },
      };
    },
  },
  "the default StateBackend, skills passed as files": {
    params: async () => ({
      params: { skills: ["/skills/"] },
      input: { files: { "/skills/alpha/SKILL.md": fileData(skillText("alpha")) } },
    }),
  },
  "a StoreBackend factory with createDeepAgent's store": {
    deepagentsFinds: false,
    params: async () => {
      const store = new InMemoryStore();
      await new StoreBackend({ store, namespace: ["skills"] }).write("/skills/alpha/SKILL.md", skillText("alpha"));
      return {
        params: {
          store,
          backend: (runtime) => new StoreBackend(runtime, { namespace: () => ["skills"] }),
          skills: ["/skills/"],
        },
      };
    },
  },
  "a CompositeBackend routing /skills/ to a store": {
    params: async () => {
      const store = new InMemoryStore();
      const skills = new StoreBackend({ store, namespace: ["skills"] });
      await skills.write("/alpha/SKILL.md", skillText("alpha"));
      return {
        params: { backend: new CompositeBackend(new StateBackend(), { "/skills/": skills }), skills: ["/skills/"] },
      };
    },
  },
};

describe("withSkillset: switching a deep agent to skillset is one change", () => {
  for (const [name, setup] of Object.entries(setups)) {
    it(`${name}: deepagents' middleware lists alpha before; after, skillset's lists and loads it`, async () => {
      const before = fakeModel().respond(new AIMessage("done"));
      const { params, input } = await setup.params();
      await createDeepAgent({ ...params, model: before }).invoke({ messages: [USER], ...input });
      if (setup.deepagentsFinds === false) expect(systemText(before, 0)).not.toContain("alpha");
      else expect(systemText(before, 0)).toContain(deepagentsLine("alpha"));

      const after = fakeModel()
        .respondWithTools([{ name: "load_skill", args: { skill_name: "alpha" }, id: "load-1" }])
        .respond(new AIMessage("done"));
      const again = await setup.params();
      const result = await createDeepAgent(withSkillset({ ...again.params, model: after })).invoke({
        messages: [USER],
        ...again.input,
      });
      expect(systemText(after, 0)).toContain(skillsetLine("alpha"));
      expect(systemText(after, 0)).not.toContain(deepagentsLine("alpha"));
      expect(toolTexts(result.messages)["load-1"]).toContain("Instructions of alpha.");
      expect(result.skillsLoaded).toEqual(["alpha"]);
    });
  }

  it("custom subagents with their own skills get skillset's middleware over their own sources; one without skills gets none", async () => {
    const tree = tempTree("skillset-migrate-");
    trees.push(tree);
    tree.write("skills/main/alpha/SKILL.md", skillText("alpha"));
    tree.write("skills/research/beta/SKILL.md", skillText("beta"));
    const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
    const params = {
      backend,
      skills: ["/skills/main/"],
      subagents: [
        {
          name: "researcher",
          description: "Researches.",
          systemPrompt: "You research.",
          skills: ["/skills/research/"],
        },
        { name: "plain", description: "No skills.", systemPrompt: "You do plain work." },
      ],
    };
    const model = fakeModel()
      .respondWithTools([
        { name: "task", args: { description: "research", subagent_type: "researcher" }, id: "task-1" },
      ]) // 0: main
      .respondWithTools([{ name: "load_skill", args: { skill_name: "beta" }, id: "load-b" }]) // 1: researcher
      .respond(new AIMessage("researched")) // 2: researcher
      .respondWithTools([{ name: "task", args: { description: "plain work", subagent_type: "plain" }, id: "task-2" }]) // 3: main
      .respond(new AIMessage("plain done")) // 4: plain
      .respond(new AIMessage("done")); // 5: main
    const result = await createDeepAgent(withSkillset({ ...params, model })).invoke({ messages: [USER] });

    expect(systemText(model, 0)).toContain(skillsetLine("alpha"));
    expect(systemText(model, 1)).toContain(skillsetLine("beta"));
    expect(systemText(model, 1)).not.toContain("alpha");
    expect(systemText(model, 1)).not.toContain(deepagentsLine("beta"));
    expect(toolTexts(model.calls[2]!.messages)["load-b"]).toContain("Instructions of beta.");
    expect(systemText(model, 4)).not.toContain("load_skill");
    expect(systemText(model, 4)).not.toContain("beta");
    expect(result.skillsLoaded).toEqual([]);
  });

  it("keeps the caller's parameters as they were (readonly arrays included) and replaces a SkillsMiddleware already there", async () => {
    const skills = Object.freeze(["/skills/"]) as readonly string[];
    const params = Object.freeze({
      skills,
      subagents: Object.freeze([Object.freeze({ name: "r", description: "d", systemPrompt: "p", skills })]),
    });
    const switched = withSkillset(params);
    const names = (middleware: readonly { name: string }[] | undefined) => middleware?.map((entry) => entry.name);
    expect(params.subagents[0]).not.toHaveProperty("middleware");
    expect(names(switched.middleware)).toEqual(["SkillsMiddleware"]);
    const twice = withSkillset(switched);
    expect(names(twice.middleware)).toEqual(["SkillsMiddleware"]);
    expect(names((twice.subagents[0] as { middleware?: Array<{ name: string }> }).middleware)).toEqual([
      "SkillsMiddleware",
    ]);
  });
});
