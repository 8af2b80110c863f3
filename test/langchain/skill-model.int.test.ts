import { fakeModel } from "@langchain/core/testing";
import { createDeepAgent, FilesystemBackend } from "deepagents";
import { AIMessage, HumanMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillsMiddleware, type SkillsLogEntry } from "../../src/langchain.js";
import { load, runAgent, skillFile, skillTree, unload, type ScriptedCall } from "./helpers.js";

// A skill's `model:` through the real agent loop: two fake models, and which one answered each call.

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function skills() {
  const tree = skillTree({
    "deep/SKILL.md": skillFile("deep", "Use deep for hard problems.", "model: big\n"),
    "odd/SKILL.md": skillFile("odd", "Use odd for tests.", "model: nowhere\n"),
    "plain/SKILL.md": skillFile("plain"),
    "same/SKILL.md": skillFile("same", "Use same for tests.", "model: inherit\n"),
  });
  trees.push(tree);
  return tree.root;
}

// Like `scriptedModel`, with message ids of its own: two fake models would both number theirs
// from 0, and the messages reducer would take the second model's reply for the first one's.
function scriptedModel(steps: Array<ScriptedCall[] | string>, name = `m${++models}`) {
  let model = fakeModel();
  steps.forEach((step, index) => {
    const id = `${name}-${index}`;
    model = model.respond(
      typeof step === "string"
        ? new AIMessage({ content: step, id })
        : new AIMessage({ content: "", id, tool_calls: step.map((call) => ({ ...call, type: "tool_call" as const })) }),
    );
  });
  return model.respond(new AIMessage({ content: "done", id: `${name}-done` }));
}
let models = 0;

const answers = (model: ReturnType<typeof scriptedModel>) => model.calls.length;

describe("skill model override", () => {
  it("runs the model calls on the skill's model while it is loaded, and on the agent's model again after unload_skill", async () => {
    const agentModel = scriptedModel([[load("deep")], "agent's final answer"]);
    // The big model answers the calls made while `deep` is loaded: it unloads the skill.
    const big = scriptedModel([[unload("deep")]]);
    const { result } = await runAgent({
      model: agentModel,
      middleware: [createSkillsMiddleware({ sources: [skills()], models: { big } })],
    });
    expect(answers(agentModel)).toBe(2);
    expect(answers(big)).toBe(1);
    // The big model saw the load result; the agent's model then answered after the unload.
    expect(big.calls[0]!.messages.at(-1)!.type).toBe("tool");
    expect(agentModel.calls[1]!.messages.at(-1)!.text).toContain("unloaded");
    expect(result.messages.at(-1)!.text).toBe("agent's final answer");
    expect(result.skillsLoaded).toEqual([]);
  });

  it("the most recently loaded skill naming a model decides; a skill without `model:` or with `inherit` changes nothing", async () => {
    const agentModel = scriptedModel([[load("plain")], [load("same")]]);
    const big = scriptedModel([]);
    await runAgent({
      model: agentModel,
      middleware: [createSkillsMiddleware({ sources: [skills()], models: { big } })],
    });
    expect([answers(agentModel), answers(big)]).toEqual([3, 0]);

    const first = scriptedModel([[load("deep")]]);
    const bigAgain = scriptedModel([[load("plain")], "big's answer"]);
    const { result } = await runAgent({
      model: first,
      middleware: [
        createSkillsMiddleware({ sources: [skills()], models: (name) => (name === "big" ? bigAgain : undefined) }),
      ],
    });
    // After `plain` (no model) is loaded too, `deep` is still the latest skill naming one.
    expect([answers(first), answers(bigAgain)]).toEqual([1, 2]);
    expect(result.messages.at(-1)!.text).toBe("big's answer");
  });

  it("an unknown model name keeps the agent's model and is reported once", async () => {
    const agentModel = scriptedModel([[load("odd")], [load("plain")], "still the agent"]);
    const entries: SkillsLogEntry[] = [];
    const { result } = await runAgent({
      model: agentModel,
      middleware: [
        createSkillsMiddleware({
          sources: [skills()],
          models: { big: scriptedModel([]) },
          logger: (entry) => entries.push(entry),
        }),
      ],
    });
    expect(answers(agentModel)).toBe(3);
    expect(result.messages.at(-1)!.text).toBe("still the agent");
    const unknown = entries.filter((entry) => entry.event === "skill_model_unknown");
    expect(unknown).toEqual([
      {
        level: "warn",
        event: "skill_model_unknown",
        message:
          "Skill 'odd' names the model 'nowhere', which the agent does not have (option models); the agent's model answers instead",
        skill: "odd",
        model: "nowhere",
      },
    ]);
  });

  it("without the models option a skill's model is ignored", async () => {
    const agentModel = scriptedModel([[load("deep")]]);
    const { result } = await runAgent({
      model: agentModel,
      middleware: [createSkillsMiddleware({ sources: [skills()] })],
    });
    expect(answers(agentModel)).toBe(2);
    expect(result.skillsLoaded).toEqual(["deep"]);
  });

  it("rejects a models option that is neither a record nor a function", () => {
    expect(() => createSkillsMiddleware({ sources: ["/x"], models: "big" as never })).toThrow(/models/);
  });
});

describe("skill model override under createDeepAgent", () => {
  it("the skill's model answers while it is loaded, and in a task subagent that inherits the skill; the agent's model otherwise", async () => {
    const tree = skillTree({
      "skills/deep/SKILL.md": skillFile("deep", "Use deep for hard problems.", "model: big\n"),
    });
    trees.push(tree);
    const backend = new FilesystemBackend({ rootDir: tree.root, virtualMode: true });
    const agentModel = scriptedModel([[load("deep")]]);
    // Every call after the load: the parent's task call, the subagent's answer, the parent's unload.
    const big = scriptedModel([
      [{ name: "task", args: { description: "dig", subagent_type: "general-purpose" }, id: "task-1" }],
      "sub answer",
      [unload("deep")],
    ]);
    const middleware = createSkillsMiddleware({
      sources: ["/skills/"],
      backend,
      models: { big },
      subagentSkills: "inherit",
    });
    const agent = createDeepAgent({ model: agentModel, backend, skills: ["/skills/"], middleware: [middleware] });

    const result = await agent.invoke({ messages: [new HumanMessage("go")] });

    expect(answers(big)).toBe(3);
    expect(answers(agentModel)).toBe(2);
    // The subagent's call (big's second) starts from the task, with deep inherited.
    expect(big.calls[1]!.messages.map((message) => message.type)).toEqual(["system", "human", "human"]);
    expect(big.calls[1]!.messages[2]!.text).toMatch(/^<skill name="deep" /);
    expect(result.messages.at(-1)!.text).toBe("done");
  });
});
