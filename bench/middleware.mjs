// Table 2, "Middleware": what the skills middleware costs per model call, in prompt tokens, in
// prompt-cache hits and in checkpoint writes, skillset vs deepagents' built-in SkillsMiddleware.
import { Buffer } from "node:buffer";
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createSkillsMiddleware as createDeepagentsSkills, FilesystemBackend } from "deepagents";
import { createAgent, tool } from "langchain";
import { z } from "zod";
import { countTokens, createCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { findSkillParents, hookOf, silenceWarnings } from "./contenders.mjs";
import { packageVersion } from "./discovery.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { measureInterleaved } from "./measure.mjs";
import { formatMs, formatRatio, summarize } from "./stats.mjs";

const LIBRARY_SIZE = 1_000;
const CALLS = { iterations: 2_000, warmup: 200 };
const CONVERSATION_MESSAGES = 20;
const BASE_PROMPT = "You are a helpful agent.";
const DEEPAGENTS = `deepagents ${packageVersion("deepagents")}`;
const TARGETS = { callMicros: 100, tokensPerSkill: 55, preambleTokens: 250, cachePrefix: 0.9, idleBytes: 0 };
// The skills state each implementation keeps in the graph (deepagents has only the catalog).
const SKILLS_KEYS = {
  skillset: ["skillsLoaded", "skillResources", "_skillsCatalogVersion"],
  deepagents: ["skillsMetadata"],
};
const CORPUS = resolve(import.meta.dirname, "../../shared/corpus/anthropics+skills");
// Skills of the corpus that ship resources: one is loaded, then both to unload the first.
const CORPUS_SKILLS = ["mcp-builder", "webapp-testing"];

/** The Middleware table with its notes, as run.mjs prints it. */
export async function middlewareTable() {
  const restore = silenceWarnings();
  try {
    const calls = await measureCalls();
    const corpus = await corpusMiddlewares();
    const tokens = await measureTokens(corpus);
    const cache = await measureCache(corpus);
    const checkpoints = {
      skillset: await measureCheckpoints("skillset"),
      deepagents: await measureCheckpoints("deepagents"),
    };
    return {
      title: "Middleware",
      rows: rowsFor(calls, tokens, cache, checkpoints),
      notes: notesFor(calls, tokens, cache, checkpoints),
    };
  } finally {
    restore();
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Time per model call: each middleware's own `wrapModelCall`, handler returning at once.

async function measureCalls() {
  const root = ensureLibrary(LIBRARY_SIZE);
  const skillset = createSkillsMiddleware({ sources: [root] });
  // Two skills that ship resources, so the loaded section lists some.
  const loadNames = (await catalogNames([root], false))
    .filter((name) => existsSync(join(root, name, "scripts")))
    .slice(0, 2);
  const state = await agentState(skillset, { history: CONVERSATION_MESSAGES - 5, turns: [loadNames] });
  const deepagents = createDeepagentsSkills({
    backend: new FilesystemBackend({ rootDir: root, virtualMode: true }),
    sources: ["/"],
  });
  const deepagentsState = {
    skillsMetadata: (await hookOf(deepagents, "beforeModel")({ messages: [] }, {})).skillsMetadata,
  };
  const requests = {
    skillset: modelRequest(state, state.messages),
    deepagents: modelRequest(deepagentsState, state.messages),
  };
  const response = new AIMessage("ok");
  const handler = async () => response;
  const contender = (label, middleware) => ({
    label,
    run: async () => {
      const start = performance.now();
      await middleware.wrapModelCall(requests[label], handler);
      return { ms: performance.now() - start, found: "ok" };
    },
  });
  const results = await measureInterleaved([contender("skillset", skillset), contender("deepagents", deepagents)], {
    ...CALLS,
    gc: false,
  });
  return {
    skillset: summarize(results.get("skillset").samples.map(toMicros)),
    deepagents: summarize(results.get("deepagents").samples.map(toMicros)),
    skills: (await catalogNames([root], false)).length,
    deepagentsSkills: deepagentsState.skillsMetadata.length,
    loaded: state.skillsLoaded,
    messages: state.messages.length,
  };
}

// A request as langchain's AgentNode builds it before running the wrapModelCall chain.
export function modelRequest(state, messages) {
  return {
    model: fakeModel(),
    messages,
    systemMessage: new SystemMessage(BASE_PROMPT),
    systemPrompt: BASE_PROMPT,
    tools: [],
    state: { ...state, messages },
    runtime: {},
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Tokens of the skills section, 3. prompt-cache stability: both on the anthropics corpus.

async function corpusMiddlewares() {
  const skillset = createSkillsMiddleware({ sources: [CORPUS], recursive: true });
  const deepagents = createDeepagentsSkills({ backend: corpusBackend(), sources: deepagentsSources() });
  const deepagentsState = {
    skillsMetadata: (await hookOf(deepagents, "beforeModel")({ messages: [] }, {})).skillsMetadata,
  };
  return {
    skillset,
    deepagents,
    skillsetState: await catalogState(skillset),
    skillsetNames: await catalogNames([CORPUS], true),
    deepagentsState,
  };
}

async function measureTokens(corpus) {
  const measure = async (section, isSkillLine) => {
    const lines = section.split("\n");
    const skillLines = lines.filter(isSkillLine);
    const total = await countTokens(section);
    const list = await countTokens(skillLines.join("\n"));
    return { total, preamble: total - list, perSkill: list / countOf(skillLines), skills: countOf(skillLines) };
  };
  const skillsetNames = corpus.skillsetNames;
  const skillsetSection = sectionOf(
    await systemPrompt(corpus.skillset, { ...corpus.skillsetState, skillsLoaded: [], skillResources: {} }, []),
  );
  const deepagentsNames = corpus.deepagentsState.skillsMetadata.map((skill) => skill.name);
  const deepagentsSection = sectionOf(await systemPrompt(corpus.deepagents, corpus.deepagentsState, []));
  return {
    // skillset: one `- name: description` line a skill.
    skillset: await measure(skillsetSection, (line) => skillsetNames.some((name) => line.startsWith(`- ${name}: `))),
    // deepagents: `- **name**: description (License: …)`, then `  → …` lines (tools, path).
    deepagents: await measure(
      deepagentsSection,
      (line) => line.startsWith("  → ") || deepagentsNames.some((name) => line.startsWith(`- **${name}**: `)),
    ),
    tools: await countTokens(corpus.skillset.tools.map((entry) => `${entry.name}: ${entry.description}`).join("\n")),
  };
}

// The skill lines are counted by the `- ` / `- **` line that opens each one.
function countOf(skillLines) {
  return skillLines.filter((line) => line.startsWith("- ")).length;
}

async function measureCache(corpus) {
  const [first, second] = CORPUS_SKILLS;
  // One thread: load the first skill; then load the second; then unload the first.
  const [none, one, both, afterUnload] = await agentStates(corpus.skillset, {
    history: 0,
    turns: [[], [first], [second], [`-${first}`]],
  });
  const prompt = (state) => systemPrompt(corpus.skillset, state, state.messages);
  const share = async (before, after) => commonPrefixShare(await prompt(before), await prompt(after));
  // deepagents has no loading: reading a SKILL.md changes nothing it puts in the prompt.
  const deepagentsBefore = await systemPrompt(corpus.deepagents, corpus.deepagentsState, []);
  const deepagentsAfter = await systemPrompt(corpus.deepagents, corpus.deepagentsState, [new HumanMessage("read it")]);
  return {
    load: await share(none, one),
    unload: await share(both, afterUnload),
    deepagents: commonPrefixShare(deepagentsBefore, deepagentsAfter),
    loadedAfter: { load: one.skillsLoaded, unload: afterUnload.skillsLoaded },
  };
}

/** Share of the longer prompt, in UTF-8 bytes, that is a byte-identical prefix of both. */
function commonPrefixShare(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  const length = Math.min(left.length, right.length);
  let same = 0;
  while (same < length && left[same] === right[same]) same++;
  return {
    share: same / Math.max(left.length, right.length),
    prefix: same,
    longer: Math.max(left.length, right.length),
  };
}

// ---------------------------------------------------------------------------------------------
// 4. Checkpoint bytes: a real createAgent + MemorySaver thread; turn 1 loads a skill, turn 2
// calls an unrelated tool. Only skills state is counted.

async function measureCheckpoints(implementation) {
  const saver = new RecordingSaver(SKILLS_KEYS[implementation]);
  const skill = CORPUS_SKILLS[0];
  const skillset = implementation === "skillset";
  // deepagents "loads" a skill by reading its SKILL.md; a plain read_file stands in for its filesystem tool.
  const load = skillset
    ? toolCall("load_skill", { skill_name: skill })
    : toolCall("read_file", { file_path: `/skills/${skill}/SKILL.md` });
  const model = fakeModel()
    .respondWithTools([load])
    .respond(new AIMessage("Loaded."))
    .respondWithTools([toolCall("echo", { text: "hi" })])
    .respond(new AIMessage("Done."));
  const agent = createAgent({
    model,
    tools: skillset ? [echoTool()] : [echoTool(), readFileTool()],
    middleware: [
      skillset
        ? createSkillsMiddleware({ sources: [CORPUS], recursive: true })
        : createDeepagentsSkills({ backend: corpusBackend(), sources: deepagentsSources() }),
    ],
    checkpointer: saver,
  });
  const config = { configurable: { thread_id: `bench-${implementation}` } };
  const turns = [];
  for (const text of ["Use the skill.", "Echo hi."]) {
    saver.reset();
    await agent.invoke({ messages: [new HumanMessage(text)] }, config);
    turns.push(saver.report());
  }
  return turns;
}

/**
 * A MemorySaver that records, per skills key, the bytes a delta-storing checkpointer (SQLite,
 * Postgres) would write: the new value of every channel whose version changed (`put`'s
 * `newVersions`), plus every pending write to that channel (`putWrites`). Bytes are also
 * attributed to the node that wrote the channel (`__start__` is the turn's input). MemorySaver
 * itself stores whole snapshots; that size is recorded too, as context.
 */
export class RecordingSaver extends MemorySaver {
  constructor(keys) {
    super();
    this.keys = keys;
    this.reset();
  }

  reset() {
    this.byKey = {};
    this.byWriter = {};
    this.lastWriter = {};
    this.snapshot = 0;
  }

  report() {
    const total = Object.values(this.byKey).reduce((sum, bytes) => sum + bytes, 0);
    return { total, byKey: this.byKey, byWriter: this.byWriter, snapshot: this.snapshot };
  }

  record(key, writer, bytes) {
    if (bytes === 0) return;
    this.byKey[key] = (this.byKey[key] ?? 0) + bytes;
    this.byWriter[writer] = (this.byWriter[writer] ?? 0) + bytes;
  }

  async put(config, checkpoint, metadata, newVersions) {
    for (const key of this.keys) {
      const bytes = jsonBytes(checkpoint.channel_values[key]);
      this.snapshot += bytes;
      if (newVersions && key in newVersions) this.record(key, this.lastWriter[key] ?? "?", bytes);
    }
    return super.put(config, checkpoint, metadata, newVersions);
  }

  async putWrites(config, writes, taskId, taskPath) {
    // Pull tasks are graph nodes ("~__pregel_pull, <node>"); push tasks are tool calls.
    const writer = /__pregel_pull, (.+)$/.exec(String(taskPath ?? ""))?.[1] ?? "tools";
    for (const [channel, value] of writes) {
      if (!this.keys.includes(channel)) continue;
      this.lastWriter[channel] = writer;
      this.record(channel, writer, jsonBytes(value));
    }
    return super.putWrites(config, writes, taskId, taskPath);
  }
}

function jsonBytes(value) {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

export function echoTool() {
  return tool(async ({ text }) => text, {
    name: "echo",
    description: "Echo the text back.",
    schema: z.object({ text: z.string() }),
  });
}

function readFileTool() {
  return tool(async ({ file_path: path }) => (await import("node:fs/promises")).readFile(join(CORPUS, path), "utf8"), {
    name: "read_file",
    description: "Read a file.",
    schema: z.object({ file_path: z.string() }),
  });
}

// ---------------------------------------------------------------------------------------------
// Shared helpers.

/** `{ _skillsCatalogVersion }` from one real run of skillset's beforeAgent. */
async function catalogState(middleware) {
  return hookOf(middleware, "beforeAgent")({ messages: [] }, {});
}

/** The names of the skills in `folders`, as the middleware's catalog has them. */
async function catalogNames(folders, recursive) {
  const snapshot = await createCatalog(folders.map((path) => createLocalSource({ path, recursive }))).refresh();
  return snapshot.skills.map((skill) => skill.name);
}

/**
 * Runs a real createAgent thread with `middleware`: each turn's model loads the skills it names
 * (in one parallel tool call; `-name` unloads) and answers. Returns the full state (private keys
 * included) after each turn. `history` earlier messages pad the conversation.
 */
async function agentStates(middleware, { history, turns }) {
  let responses = fakeModel();
  for (const skills of turns) {
    const calls = skills.map((skill) =>
      skill.startsWith("-")
        ? toolCall("unload_skill", { skill_name: skill.slice(1) })
        : toolCall("load_skill", { skill_name: skill }),
    );
    if (calls.length > 0) responses = responses.respondWithTools(calls);
    responses = responses.respond(new AIMessage("Done."));
  }
  const agent = createAgent({ model: responses, tools: [], middleware: [middleware], checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "states" }, streamMode: "values" };
  const earlier = Array.from({ length: history }, (_, at) =>
    at % 2 === 0
      ? new HumanMessage(`Question ${at / 2 + 1}: what does the report say?`)
      : new AIMessage(`Answer ${(at + 1) / 2}: the report lists ${at * 7} open items, mostly minor.`),
  );
  const states = [];
  for (const [at] of turns.entries()) {
    let last;
    const input = [...(at === 0 ? earlier : []), new HumanMessage(`Task ${at + 1}.`)];
    for await (const chunk of await agent.stream({ messages: input }, config)) last = chunk;
    states.push(last);
  }
  return states;
}

async function agentState(middleware, options) {
  return (await agentStates(middleware, options)).at(-1);
}

let callCount = 0;
export function toolCall(name, args) {
  return { name, args, id: `call_${++callCount}` };
}

/** The full system prompt the model gets from `middleware` for this state and these messages. */
async function systemPrompt(middleware, state, messages) {
  let text;
  await middleware.wrapModelCall(modelRequest(state, messages), async (request) => {
    text = request.systemMessage.text;
    return new AIMessage("ok");
  });
  return text;
}

/** What the middleware added after the base prompt. */
function sectionOf(prompt) {
  if (!prompt.startsWith(BASE_PROMPT)) throw new Error("the skills section does not follow the base prompt");
  return prompt.slice(BASE_PROMPT.length).replace(/^\n+/, "");
}

function toMicros(ms) {
  return ms * 1000;
}

// ---------------------------------------------------------------------------------------------
// Table.

function rowsFor(calls, tokens, cache, checkpoints) {
  const met = (ok) => (ok ? "met" : "MISSED");
  const percent = (value) => `${(value * 100).toFixed(1)}%`;
  const bytes = (turn) => turn.total.toLocaleString("en-US");
  const callRatio = (key) => `skillset ${formatRatio(calls.deepagents[key] / calls.skillset[key])} faster`;
  return [
    {
      metric: `wrapModelCall median µs (${LIBRARY_SIZE.toLocaleString("en-US")} skills)`,
      skillset: formatMs(calls.skillset.median),
      [DEEPAGENTS]: formatMs(calls.deepagents.median),
      "ratio or target": `${callRatio("median")}; target ≤ ${TARGETS.callMicros}`,
      "met?": met(calls.skillset.median <= TARGETS.callMicros),
    },
    {
      metric: `wrapModelCall p90 µs (${LIBRARY_SIZE.toLocaleString("en-US")} skills)`,
      skillset: formatMs(calls.skillset.p90),
      [DEEPAGENTS]: formatMs(calls.deepagents.p90),
      "ratio or target": callRatio("p90"),
      "met?": "",
    },
    {
      metric: "catalog tokens per skill (anthropics)",
      skillset: tokens.skillset.perSkill.toFixed(1),
      [DEEPAGENTS]: tokens.deepagents.perSkill.toFixed(1),
      "ratio or target": `${formatRatio(tokens.deepagents.perSkill / tokens.skillset.perSkill)} fewer; target ≤ ${TARGETS.tokensPerSkill}`,
      "met?": met(tokens.skillset.perSkill <= TARGETS.tokensPerSkill),
    },
    {
      metric: "preamble tokens (section minus skill lines)",
      skillset: String(tokens.skillset.preamble),
      [DEEPAGENTS]: String(tokens.deepagents.preamble),
      "ratio or target": `${formatRatio(tokens.deepagents.preamble / tokens.skillset.preamble)} fewer; target ≤ ${TARGETS.preambleTokens}`,
      "met?": met(tokens.skillset.preamble <= TARGETS.preambleTokens),
    },
    {
      metric: "skills section tokens, total (anthropics)",
      skillset: String(tokens.skillset.total),
      [DEEPAGENTS]: String(tokens.deepagents.total),
      "ratio or target": `${formatRatio(tokens.deepagents.total / tokens.skillset.total)} fewer`,
      "met?": "",
    },
    {
      metric: "cached prefix after a load",
      skillset: percent(cache.load.share),
      [DEEPAGENTS]: `n/a (${percent(cache.deepagents.share)}, no load state)`,
      "ratio or target": `target ≥ ${percent(TARGETS.cachePrefix)}`,
      "met?": met(cache.load.share >= TARGETS.cachePrefix),
    },
    {
      metric: "cached prefix after an unload",
      skillset: percent(cache.unload.share),
      [DEEPAGENTS]: `n/a (${percent(cache.deepagents.share)}, no load state)`,
      "ratio or target": `target ≥ ${percent(TARGETS.cachePrefix)}`,
      "met?": met(cache.unload.share >= TARGETS.cachePrefix),
    },
    {
      metric: "skills-state checkpoint bytes, turn 2 (unrelated tool)",
      skillset: bytes(checkpoints.skillset[1]),
      [DEEPAGENTS]: bytes(checkpoints.deepagents[1]),
      "ratio or target": `target ${TARGETS.idleBytes}`,
      "met?": met(checkpoints.skillset[1].total <= TARGETS.idleBytes),
    },
    {
      metric: "… of which written by the middleware's hooks and tools",
      skillset: ownBytes(checkpoints.skillset[1]).toLocaleString("en-US"),
      [DEEPAGENTS]: ownBytes(checkpoints.deepagents[1]).toLocaleString("en-US"),
      "ratio or target": "rest: the turn's input (`__start__`)",
      "met?": "",
    },
    {
      metric: "skills-state checkpoint bytes, turn 1 (loads a skill)",
      skillset: bytes(checkpoints.skillset[0]),
      [DEEPAGENTS]: bytes(checkpoints.deepagents[0]),
      "ratio or target": "contrast (must write)",
      "met?": "",
    },
  ];
}

// Bytes not written by the turn's input step (`__start__`): the middleware's own nodes and tools.
function ownBytes(turn) {
  return Object.entries(turn.byWriter).reduce(
    (sum, [writer, bytes]) => (writer === "__start__" ? sum : sum + bytes),
    0,
  );
}

// langchain's ReactAgent.invoke/stream starts each turn from `{ ...getState().values, ...input }`,
// so the `__start__` step rewrites every public state key, whatever the middleware does.
function refeedNote(checkpoints) {
  const refed = [checkpoints.skillset[1], checkpoints.deepagents[1]].some((turn) => (turn.byWriter.__start__ ?? 0) > 0);
  if (!refed) return [];
  return [
    "- Turn 2's input step (`__start__`) writes skills keys because langchain's `ReactAgent.invoke`/`stream` merges the thread's current `getState().values` into each turn's input, so every public state key is written again, once per turn (channels with reducers get a new version even when the reducer ignores the value). Private `_` keys are not re-fed: `_skillsCatalogVersion` is absent from turn 2.",
  ];
}

function notesFor(calls, tokens, cache, checkpoints) {
  const kb = (value) => `${(value / 1024).toFixed(1)} KB`;
  const list = (entries) =>
    Object.entries(entries)
      .map(([name, bytes]) => `${name} ${bytes.toLocaleString("en-US")}`)
      .join(", ") || "nothing";
  const byKey = (turn) => `${list(turn.byKey)} (by writer: ${list(turn.byWriter)})`;
  return [
    "",
    `Node ${process.version}, ${process.platform}; one process, same run as the Discovery table.`,
    "",
    `- wrapModelCall: ${CALLS.iterations.toLocaleString("en-US")} timed calls each after ${CALLS.warmup} warm-up calls, interleaved (rotating order), no GC between calls; each call is \`await middleware.wrapModelCall(request, handler)\` with a handler that resolves at once, so only the middleware's own work is timed. Request as langchain's AgentNode builds it (model, ${calls.messages} messages, \`SystemMessage("${BASE_PROMPT}")\`, systemPrompt, tools [], state, runtime {}). skillset state: the ${calls.skills.toLocaleString("en-US")}-skill catalog and \`_skillsCatalogVersion\` from a real \`beforeAgent\` (generated library, bench/generate-library.mjs), \`skillsLoaded\` ${JSON.stringify(calls.loaded)} with their \`skillResources\`, loaded by a real createAgent turn (their load results are among the messages). deepagents state: \`{ skillsMetadata }\` (${calls.deepagentsSkills.toLocaleString("en-US")} skills) from its \`beforeModel\` over \`FilesystemBackend({ virtualMode: true })\`.`,
    `- Tokens: o200k_base (\`countTokens\`). Section = everything the middleware appends after the base prompt, with nothing loaded (skillset's ends with its loaded-skills line). Per skill = tokens of the skill lines / skills listed (skillset ${tokens.skillset.skills}, deepagents ${tokens.deepagents.skills}); preamble = section − skill lines. Corpus: skillset gets one \`recursive: true\` source on anthropics+skills; deepagents gets ${JSON.stringify(deepagentsSources())} on a virtual FilesystemBackend (short paths in its \`→ Read\` lines). Not counted: tool definitions; skillset's \`load_skill\` + \`unload_skill\` descriptions are ${tokens.tools} tokens, deepagents relies on its filesystem middleware's \`read_file\`.`,
    `- Cache: full system prompt (base + section) before and after, share = byte-identical common prefix / longer prompt, from real createAgent states. Load: none → ${JSON.stringify(cache.loadedAfter.load)} (prefix ${cache.load.prefix.toLocaleString("en-US")} of ${cache.load.longer.toLocaleString("en-US")} bytes). Unload: ${JSON.stringify(CORPUS_SKILLS)} → ${JSON.stringify(cache.loadedAfter.unload)} (prefix ${cache.unload.prefix.toLocaleString("en-US")} of ${cache.unload.longer.toLocaleString("en-US")} bytes). deepagents keeps no loaded-skill state (the model reads SKILL.md with \`read_file\`), so its prompt is the same before and after; shown for reference.`,
    `- Checkpoints: createAgent + fakeModel + the middleware + a MemorySaver; turn 1 loads \`${CORPUS_SKILLS[0]}\` (deepagents: a \`read_file\` of its SKILL.md) and answers; turn 2 calls \`echo\` and answers. Bytes = JSON of every skills key whose channel got a new version in a checkpoint (\`put\`'s newVersions) plus every pending write to it (\`putWrites\`), i.e. what a delta-storing checkpointer writes. skillset turn 1: ${byKey(checkpoints.skillset[0])}; turn 2: ${byKey(checkpoints.skillset[1])}. deepagents turn 1: ${byKey(checkpoints.deepagents[0])}; turn 2: ${byKey(checkpoints.deepagents[1])}. MemorySaver itself re-serializes whole snapshots: skills keys in its snapshots were ${kb(checkpoints.skillset[1].snapshot)} (skillset) and ${kb(checkpoints.deepagents[1].snapshot)} (deepagents) in turn 2.`,
    ...refeedNote(checkpoints),
    "",
    "Targets:",
    `- wrapModelCall median ≤ ${TARGETS.callMicros} µs: ${formatMs(calls.skillset.median)} µs (${calls.skillset.median <= TARGETS.callMicros ? "met" : "MISSED"})`,
    `- ≤ ${TARGETS.tokensPerSkill} tokens per skill: ${tokens.skillset.perSkill.toFixed(1)} (${tokens.skillset.perSkill <= TARGETS.tokensPerSkill ? "met" : "MISSED"}); preamble ≤ ${TARGETS.preambleTokens} tokens: ${tokens.skillset.preamble} (${tokens.skillset.preamble <= TARGETS.preambleTokens ? "met" : "MISSED"})`,
    `- cached prefix ≥ ${TARGETS.cachePrefix * 100}% after a load / unload: ${(cache.load.share * 100).toFixed(1)}% / ${(cache.unload.share * 100).toFixed(1)}% (${Math.min(cache.load.share, cache.unload.share) >= TARGETS.cachePrefix ? "met" : "MISSED"})`,
    `- ${TARGETS.idleBytes} skills-state checkpoint bytes on a step that does not change skills: ${checkpoints.skillset[1].total.toLocaleString("en-US")} (${checkpoints.skillset[1].total <= TARGETS.idleBytes ? "met" : "MISSED"})`,
  ];
}

// deepagents cannot recurse: it gets the folders that hold skill folders, as virtual paths.
function deepagentsSources() {
  return findSkillParents(CORPUS).map((parent) => `/${relative(CORPUS, parent)}/`.replace("//", "/"));
}

function corpusBackend() {
  return new FilesystemBackend({ rootDir: CORPUS, virtualMode: true });
}
