// Table "AI SDK": what skillset/ai costs per step of the AI SDK's loop, measured as the Middleware
// table measures wrapModelCall: the adapter's own `prepareStep`, timed alone, interleaved with
// the LangChain middleware's wrapModelCall and the engine's prompt on the same thread.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createSkills } from "../dist/ai.js";
import { skillsInTranscript } from "../dist/ai/transcript-skills.js";
import { createSkillEngine } from "../dist/host.js";
import { createCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { hookOf, silenceWarnings } from "./contenders.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { measureInterleaved } from "./measure.mjs";
import { modelRequest } from "./middleware.mjs";
import { formatMs, formatRatio, summarize } from "./stats.mjs";

const LIBRARY_SIZE = 1_000;
const CALLS = { iterations: 2_000, warmup: 200 };
// A conversation of about 20 messages, as the Middleware table's; and a long one.
const HISTORY = { short: 15, long: 195 };
const BASE_PROMPT = "You are a helpful agent.";
const TARGET_MICROS = 100;
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The AI SDK table with its notes, as run.mjs prints it. */
export async function aiSdkTable() {
  const restore = silenceWarnings();
  try {
    const root = ensureLibrary(LIBRARY_SIZE);
    const skills = createSkills({ sources: [root] });
    const store = new Map();
    const stored = createSkills({ sources: [root], store }).thread("bench");
    const names = (await skills.invocableSkills())
      .map((skill) => skill.name)
      .filter((name) => existsSync(join(root, name, "scripts")))
      .slice(0, 2);
    const short = await conversation(skills, names, HISTORY.short);
    const long = await conversation(skills, names, HISTORY.long);
    // The engine's own view of the same thread, for the reference rows and the store.
    const catalog = createCatalog([createLocalSource({ path: root })]);
    const engine = createSkillEngine();
    const { skills: metadata, version } = await engine.refresh(catalog, { loaded: [] });
    const byName = new Map(metadata.map((skill) => [skill.name, skill]));
    const loaded = skillsInTranscript(short, { skill: (name) => byName.get(name), maxLoaded: 10 });
    store.set("bench", loaded);
    const contenders = [
      stepContender("prepareStep, state from the messages", skills, short),
      stepContender("prepareStep, state from the messages (200 messages)", skills, long),
      stepContender("prepareStep, state in a Map store", stored, short),
      await middlewareContender(root, loaded, short),
      engineContender(engine, {
        state: { skills: metadata, catalogVersion: version, ...loaded },
        sources: async () => catalog.sources,
      }),
    ];
    const results = await measureInterleaved(contenders, { ...CALLS, gc: false });
    const micros = new Map(
      contenders.map((contender) => [
        contender.label,
        summarize(results.get(contender.label).samples.map((ms) => ms * 1000)),
      ]),
    );
    catalog.close();
    await skills.close();
    return { title: "AI SDK", rows: rowsFor(micros), notes: notesFor(micros, names, short.length, long.length) };
  } finally {
    restore();
  }
}

// A real generateText turn over `history` earlier messages that loads `names` in one step.
async function conversation(skills, names, history) {
  const responses = [
    {
      content: names.map((name, index) => ({
        type: "tool-call",
        toolCallId: `load-${index}`,
        toolName: "load_skill",
        input: JSON.stringify({ skill_name: name }),
      })),
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: USAGE,
      warnings: [],
    },
    {
      content: [{ type: "text", text: "Done." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: USAGE,
      warnings: [],
    },
  ];
  const model = new MockLanguageModelV3({ doGenerate: async () => responses.shift() });
  const earlier = Array.from({ length: history }, (_, at) =>
    at % 2 === 0
      ? { role: "user", content: `Question ${at / 2 + 1}: what does the report say?` }
      : { role: "assistant", content: `Answer ${(at + 1) / 2}: the report lists ${at * 7} open items, mostly minor.` },
  );
  const messages = [...earlier, { role: "user", content: "Use the skills." }];
  const result = await generateText({
    model,
    messages,
    tools: skills.tools,
    prepareStep: skills.prepareStep({ instructions: BASE_PROMPT }),
    stopWhen: stepCountIs(5),
  });
  return [...messages, ...result.response.messages];
}

// Each step of the AI SDK's loop hands prepareStep a new messages array: so does each run here.
function stepContender(label, skills, messages) {
  const prepareStep = skills.prepareStep({ instructions: BASE_PROMPT });
  return {
    label,
    run: async () => {
      const step = { messages: [...messages], steps: [], stepNumber: 1 };
      const start = performance.now();
      const result = await prepareStep(step);
      return { ms: performance.now() - start, found: result.system.length };
    },
  };
}

// The LangChain middleware's wrapModelCall on the same thread: the same catalog, loaded skills
// and resources, and the conversation as LangChain messages.
async function middlewareContender(root, loaded, messages) {
  const middleware = createSkillsMiddleware({ sources: [root] });
  const { _skillsCatalogVersion } = await hookOf(middleware, "beforeAgent")({ messages: [] }, {});
  const request = modelRequest(
    { _skillsCatalogVersion, skillsLoaded: loaded.loaded, skillResources: loaded.resources },
    messages.flatMap(toLangChain),
  );
  const response = new AIMessage("ok");
  return {
    label: "skillset/langchain wrapModelCall (reference)",
    run: async () => {
      const start = performance.now();
      await middleware.wrapModelCall(request, async () => response);
      return { ms: performance.now() - start, found: "ok" };
    },
  };
}

// The floor every host pays: the engine's prompt for a state it is handed.
function engineContender(engine, request) {
  return {
    label: "engine.systemPrompt alone (floor)",
    run: async () => {
      const start = performance.now();
      const text = await engine.systemPrompt(request);
      return { ms: performance.now() - start, found: text.length };
    },
  };
}

function toLangChain(message) {
  if (message.role === "user") return [new HumanMessage(message.content)];
  if (message.role === "tool")
    return message.content.map(
      (part) => new ToolMessage({ content: part.output.value, tool_call_id: part.toolCallId, name: part.toolName }),
    );
  if (typeof message.content === "string") return [new AIMessage(message.content)];
  const text = message.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
  const toolCalls = message.content
    .filter((part) => part.type === "tool-call")
    .map((part) => ({ id: part.toolCallId, name: part.toolName, args: part.input }));
  return [new AIMessage({ content: text, tool_calls: toolCalls })];
}

function rowsFor(micros) {
  const floor = micros.get("engine.systemPrompt alone (floor)").median;
  const reference = micros.get("skillset/langchain wrapModelCall (reference)").median;
  return [...micros].map(([label, stats]) => ({
    measure: label,
    "median µs": formatMs(stats.median),
    "p90 µs": formatMs(stats.p90),
    "vs engine floor": formatRatio(stats.median / floor),
    "vs LangChain": formatRatio(stats.median / reference),
    "target ≤ 100 µs": label.startsWith("prepareStep") ? (stats.median <= TARGET_MICROS ? "met" : "MISSED") : "",
  }));
}

function notesFor(micros, names, shortLength, longLength) {
  const own =
    micros.get("prepareStep, state from the messages").median - micros.get("engine.systemPrompt alone (floor)").median;
  return [
    "",
    `Node ${process.version}, ${process.platform}, AI SDK 6 (\`ai\` of the repository); generated library of ${LIBRARY_SIZE.toLocaleString("en-US")} skills (bench/generate-library.mjs).`,
    "",
    `- Each run is \`await prepareStep({ messages, steps: [], stepNumber: 1 })\` of \`createSkills({ sources: [library] }).prepareStep({ instructions })\`, on a new copy of the messages array (the AI SDK hands each step a new one, and the adapter reads the thread's state once per step array): a catalog re-scan (unchanged, watched), the loaded skills replayed from the messages and the engine's prompt. ${CALLS.iterations.toLocaleString("en-US")} timed runs each after ${CALLS.warmup} warm-up runs, interleaved with the other rows, no GC between runs.`,
    `- Conversation: a real generateText turn (MockLanguageModelV3) that loads ${JSON.stringify(names)} in one step (two skills that ship resources), after ${HISTORY.short} earlier messages (${shortLength} in all) or ${HISTORY.long} (${longLength} in all). Map store: the same loaded skills kept in a \`Map\` by thread id.`,
    `- LangChain reference: \`createSkillsMiddleware({ sources: [library] }).wrapModelCall\` with a handler that resolves at once, on the same catalog version, loaded skills, resources and conversation (as LangChain messages), as in the Middleware table. Engine floor: \`engine.systemPrompt\` for the same state, handed ready: what every host pays for the prompt.`,
    `- The adapter's own share (replay and re-scan) at about 20 messages: ${formatMs(own)} µs a step.`,
  ];
}
