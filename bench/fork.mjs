// Table "Forked skills": what running a `context: fork` skill in its own agent costs beyond
// loading a skill into the conversation, through the real createAgent loop with a fake model that
// answers at once, so model time is (almost) nil and what is left is skillset's and LangGraph's.
// Each sample is one `invoke`: the model loads the skill, (the fork answers,) the model finishes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fakeModel } from "@langchain/core/testing";
import { AIMessage, createAgent, HumanMessage } from "langchain";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { measureInterleaved } from "./measure.mjs";
import { formatMs, summarize } from "./stats.mjs";

const ITERATIONS = 40;
const COLD_ITERATIONS = 15;

/** The Forked skills table with its notes, as run.mjs prints it. */
export async function forkTable() {
  const root = mkdtempSync(join(tmpdir(), "skillset-bench-fork-"));
  try {
    for (const [name, extra] of [
      ["inline", ""],
      ["forked", "context: fork\n"],
    ]) {
      mkdirSync(join(root, name));
      writeFileSync(
        join(root, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: Use ${name} for the benchmark.\n${extra}---\n\n# ${name}\n\nDo the ${name} steps.\n`,
      );
    }
    const warm = await measureInterleaved([warmContender(root, "inline"), warmContender(root, "forked")], {
      iterations: ITERATIONS,
      warmup: 3,
    });
    const cold = await measureInterleaved([coldContender(root, "inline"), coldContender(root, "forked")], {
      iterations: COLD_ITERATIONS,
      warmup: 2,
    });
    const modelCall = await fakeModelCallMs();
    const row = (label, results) => {
      const inline = summarize(results.get("inline").samples).median;
      const forked = summarize(results.get("forked").samples).median;
      return {
        case: label,
        "load into the conversation (ms)": formatMs(inline),
        "forked (ms)": formatMs(forked),
        "fork overhead (ms)": formatMs(forked - inline - modelCall),
      };
    };
    return {
      title: "Forked skills",
      rows: [
        row("same agent, fork agent built already", warm),
        row("new agent each time (the fork agent is built)", cold),
      ],
      notes: [
        "",
        `Medians of ${ITERATIONS} (warm) and ${COLD_ITERATIONS} (cold) interleaved invokes, each: the model calls load_skill, then answers; for the forked skill a fork agent makes one model call in between. The overhead is the forked invoke minus the inline one, minus one fake model call (${formatMs(modelCall)} ms median), so it excludes model time: building the fork's task, starting a LangGraph run with the skills middleware, its catalog refresh and prompt, and streaming its progress. The fork agent is compiled once per model, agent type and tool set, then reused.`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// One agent for every sample: its fake model holds the answers of every run.
function warmContender(root, skill) {
  const runs = ITERATIONS + 3;
  let model = fakeModel();
  for (let index = 0; index < runs; index++) {
    model = model.respondWithTools([{ name: "load_skill", args: { skill_name: skill }, id: `load-${index}` }]);
    if (skill === "forked") model = model.respond(new AIMessage("fork answer"));
    model = model.respond(new AIMessage("done"));
  }
  const agent = createAgent({ model, tools: [], middleware: [createSkillsMiddleware({ sources: [root] })] });
  return { label: skill, run: () => timeInvoke(agent, skill) };
}

function coldContender(root, skill) {
  return {
    label: skill,
    run: () => {
      let model = fakeModel().respondWithTools([{ name: "load_skill", args: { skill_name: skill }, id: "load-1" }]);
      if (skill === "forked") model = model.respond(new AIMessage("fork answer"));
      const agent = createAgent({
        model: model.respond(new AIMessage("done")),
        tools: [],
        middleware: [createSkillsMiddleware({ sources: [root] })],
      });
      return timeInvoke(agent, skill);
    },
  };
}

async function timeInvoke(agent, skill) {
  const start = performance.now();
  const result = await agent.invoke({ messages: [new HumanMessage("go")] });
  const ms = performance.now() - start;
  const loadResult = result.messages.find((message) => message.type === "tool")?.text ?? "";
  const expected = skill === "forked" ? loadResult === "fork answer" : loadResult.startsWith('<skill name="inline"');
  if (!expected)
    throw new Error(`bench/fork.mjs: unexpected load_skill result for '${skill}': ${loadResult.slice(0, 200)}`);
  return { ms, found: "ok" };
}

async function fakeModelCallMs() {
  const samples = [];
  for (let index = 0; index < 50; index++) {
    const model = fakeModel().respond(new AIMessage("x"));
    const start = performance.now();
    await model.invoke([new HumanMessage("go")]);
    samples.push(performance.now() - start);
  }
  return summarize(samples.slice(10)).median;
}
