// Table "Large libraries": the catalog budget, search_skills and thread state at 1,000 and
// 10,000 generated skills and on the shared corpus. Search quality has its own table
// (search-quality.mjs).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { createCatalog, createLexicalRanker, renderCatalog, DEFAULT_CATALOG_BUDGET } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { CORPUS_ROOT, hasCorpus, hookOf, silenceWarnings } from "./contenders.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { collectGarbage, collectGarbageAndSettle, time } from "./measure.mjs";
import { echoTool, modelRequest, RecordingSaver, toolCall } from "./middleware.mjs";
import { formatMs, median, quantile } from "./stats.mjs";

const SIZES = [1_000, 10_000];
const QUERIES = 400;
const BUILD_RUNS = 5;
const CALLS = 500;
const STATE_KEYS = ["skillsLoaded", "skillResources", "_skillsCatalogVersion"];
const TARGETS = { searchP50Ms: 1, buildShare: 0.5, unchangedTurnBytes: 1024 };

/** The Large libraries table. */
export async function libraryTable() {
  const restore = silenceWarnings();
  try {
    const libraries = SIZES.map((size) => ({
      label: `${size.toLocaleString("en-US")} generated`,
      folders: [ensureLibrary(size)],
      recursive: false,
    }));
    if (hasCorpus()) libraries.push({ label: "shared corpus", folders: corpusFolders(), recursive: true });
    const measured = [];
    for (const library of libraries) measured.push({ label: library.label, ...(await measureLibrary(library)) });
    return { title: "Large libraries", rows: rowsFor(measured), notes: notesFor() };
  } finally {
    restore();
  }
}

async function measureLibrary({ folders, recursive }) {
  const sources = () => folders.map((path) => createLocalSource({ path, recursive }));
  // Cold discovery: a new catalog over new sources, as a new process has.
  const discovery = [];
  for (let run = 0; run < BUILD_RUNS; run++) {
    await collectGarbageAndSettle();
    discovery.push((await time(() => createCatalog(sources()).refresh())).ms);
  }
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const snapshot = await createCatalog(sources()).refresh();
  const skills = snapshot.skills;
  const ranker = createLexicalRanker();
  const queries = queriesFor(skills);
  // Index build: the first search of a new ranker indexes the whole catalog.
  const build = [];
  for (let run = 0; run < BUILD_RUNS; run++) {
    const fresh = run === BUILD_RUNS - 1 ? ranker : createLexicalRanker();
    collectGarbage();
    build.push((await time(() => fresh(queries[0], skills, 5))).ms);
  }
  collectGarbage();
  const memory = process.memoryUsage().heapUsed - heapBefore;
  const search = [];
  for (const query of queries) {
    const start = performance.now();
    await ranker(query, skills, 5);
    search.push(performance.now() - start);
  }
  const unbudgeted = await renderCatalog(skills);
  const budgeted = await renderCatalog(skills, {
    budget: DEFAULT_CATALOG_BUDGET,
    searchTool: "search_skills",
    sourceOrder: [],
  });
  return {
    skills: skills.length,
    discoveryMs: median(discovery),
    buildMs: median(build),
    searchP50: median(search),
    searchP99: quantile(search, 0.99),
    memoryMb: memory / 2 ** 20,
    tokens: {
      without: unbudgeted.tokens,
      with: budgeted.tokens,
      full: budgeted.full.length,
      short: budgeted.short.length,
      named: budgeted.named.length,
      hidden: budgeted.hidden.length,
    },
    callMicros: await measureCall(folders, recursive),
    stateBytes: await measureUnchangedTurn(folders, recursive, skills[0].name),
  };
}

// Queries made of words from the skills' own descriptions, two to five words each, seeded.
export function queriesFor(skills, seed = 7) {
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const words = skills.flatMap((skill) => skill.description.toLowerCase().match(/[a-z]{4,}/g) ?? []);
  return Array.from({ length: QUERIES }, () =>
    Array.from({ length: 2 + Math.floor(random() * 4) }, () => words[Math.floor(random() * words.length)]).join(" "),
  );
}

// wrapModelCall with the default budget on: the middleware's own time per model call, in µs.
export async function measureCall(folders, recursive) {
  const middleware = createSkillsMiddleware({ sources: folders, recursive });
  const state = {
    messages: [new HumanMessage("Hello")],
    skillsLoaded: [],
    skillResources: {},
    ...(await hookOf(middleware, "beforeAgent")({ messages: [] }, {})),
  };
  const request = modelRequest(state, state.messages);
  const handler = async () => new AIMessage("ok");
  const samples = [];
  for (let call = -50; call < CALLS; call++) {
    const start = performance.now();
    await middleware.wrapModelCall(request, handler);
    if (call >= 0) samples.push((performance.now() - start) * 1000);
  }
  return median(samples);
}

// Bytes of skills state a delta-storing checkpointer writes on a turn that changes no skills
// (turn 2, after turn 1 loaded one).
async function measureUnchangedTurn(folders, recursive, skill) {
  const saver = new RecordingSaver(STATE_KEYS);
  const model = fakeModel()
    .respondWithTools([toolCall("load_skill", { skill_name: skill })])
    .respond(new AIMessage("Loaded."))
    .respondWithTools([toolCall("echo", { text: "hi" })])
    .respond(new AIMessage("Done."));
  const agent = createAgent({
    model,
    tools: [echoTool()],
    middleware: [createSkillsMiddleware({ sources: folders, recursive })],
    checkpointer: saver,
  });
  const config = { configurable: { thread_id: "library-bench" } };
  const turns = [];
  for (const text of ["Use the skill.", "Echo hi."]) {
    saver.reset();
    await agent.invoke({ messages: [new HumanMessage(text)] }, config);
    turns.push(saver.report().total);
  }
  return { loadTurn: turns[0], unchangedTurn: turns[1] };
}

function corpusFolders() {
  return readdirSync(CORPUS_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CORPUS_ROOT, entry.name));
}

function rowsFor(measured) {
  const rows = [];
  const column = (pick) => Object.fromEntries(measured.map((entry) => [entry.label, pick(entry)]));
  const count = (value) => value.toLocaleString("en-US");
  rows.push({ Metric: "skills", ...column((entry) => count(entry.skills)), Target: "" });
  rows.push({ Metric: "catalog tokens, no budget", ...column((entry) => count(entry.tokens.without)), Target: "" });
  rows.push({
    Metric: `catalog tokens, budget ${count(DEFAULT_CATALOG_BUDGET)}`,
    ...column((entry) => count(entry.tokens.with)),
    Target: `≤ ${count(DEFAULT_CATALOG_BUDGET)}`,
  });
  rows.push({
    Metric: "… whole / shortened / named / search only",
    ...column(
      ({ tokens }) =>
        `${count(tokens.full)} / ${count(tokens.short)} / ${count(tokens.named)} / ${count(tokens.hidden)}`,
    ),
    Target: "",
  });
  rows.push({
    Metric: "search p50 / p99 (ms)",
    ...column((entry) => `${formatMs(entry.searchP50)} / ${formatMs(entry.searchP99)}`),
    Target: `p50 ≤ ${TARGETS.searchP50Ms} ms`,
  });
  rows.push({
    Metric: "index build (ms) / share of cold discovery",
    ...column((entry) => `${formatMs(entry.buildMs)} / ${Math.round((entry.buildMs / entry.discoveryMs) * 100)}%`),
    Target: `≤ ${TARGETS.buildShare * 100}%`,
  });
  rows.push({ Metric: "cold discovery (ms)", ...column((entry) => formatMs(entry.discoveryMs)), Target: "" });
  rows.push({ Metric: "heap of catalog + index (MB)", ...column((entry) => entry.memoryMb.toFixed(1)), Target: "" });
  rows.push({
    Metric: "skills-state bytes: load turn / unchanged turn",
    ...column((entry) => `${count(entry.stateBytes.loadTurn)} / ${count(entry.stateBytes.unchangedTurn)}`),
    Target: `unchanged ≤ ${count(TARGETS.unchangedTurnBytes)}`,
  });
  rows.push({
    Metric: "wrapModelCall, budget on (µs, median)",
    ...column((entry) => entry.callMicros.toFixed(0)),
    Target: "",
  });
  return rows;
}

function notesFor() {
  return [
    "",
    `- Catalog tokens: o200k_base, the Markdown catalog as the middleware renders it (no budget, and the default budget of ${DEFAULT_CATALOG_BUDGET.toLocaleString("en-US")} tokens with \`search_skills\` named for the skills left out); priority by source order and name.`,
    `- Search: ${QUERIES} queries of 2–5 words drawn (seeded) from the library's own descriptions, \`limit\` 5, one warm ranker; index build is the first search of a new ranker (indexes the whole catalog), median of ${BUILD_RUNS}, against the median of ${BUILD_RUNS} cold discoveries (a new catalog over new local sources).`,
    "- Heap: `heapUsed` after the catalog snapshot and the index are built, minus before, with GC forced around it.",
    "- Skills-state bytes: a real `createAgent` thread on a recording MemorySaver that counts what a delta-storing checkpointer (SQLite, PostgreSQL) writes for `skillsLoaded`, `skillResources` and `_skillsCatalogVersion`: turn 1 loads a skill, turn 2 calls an unrelated tool.",
    `- wrapModelCall: the median of ${CALLS} calls after 50 warm-up calls, with the default budget, one user message, nothing loaded.`,
  ];
}
