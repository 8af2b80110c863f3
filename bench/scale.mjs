// Table "Scale": every path at 10,000 and 100,000 generated skills, side by side, so how each cost
// grows with the library shows: discovery against the raw floor, the search index, memory, the
// catalog over its budget, search_skills, the middleware, the event loop and `skillset mcp`.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createSkillEngine } from "../dist/host.js";
import { createCatalog, createLexicalRanker, DEFAULT_CATALOG_BUDGET, renderCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { rawFloor, silenceWarnings, skillsetCold } from "./contenders.mjs";
import { skillsetColdBlock, timeAndBlock } from "./event-loop-block.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { measureCall, queriesFor } from "./library.mjs";
import { collectGarbage, measureInterleaved, time } from "./measure.mjs";
import { measureMcp } from "./scale-mcp.mjs";
import { measureRescan, measureShape, SHAPES } from "./scale-shapes.mjs";
import { memoryPerSkill } from "./scale-memory.mjs";
import { formatMs, formatRatio, median, quantile, summarize } from "./stats.mjs";

const SIZES = [10_000, 100_000];
// Rounds of cold discovery against the floor: fewer at 100k, where one round takes seconds.
const ROUNDS = { 10_000: 11, 100_000: 5 };
const RUNS = 5;
const WARM_UP_QUERIES = 100;
const TARGETS = {
  vsFloor: 1.5,
  buildShare: 0.5,
  heapPerSkill: 2048,
  renderMs: 50,
  searchP50: 1,
  searchP99: 5,
  callMicros: 50,
  blockMs: 50,
  vsPing: 1.5,
};

/** The Scale table with its notes, as run.mjs prints it. */
export async function scaleTable() {
  const restore = silenceWarnings();
  try {
    const measured = [];
    for (const size of SIZES) measured.push(await measureSize(size));
    return { title: "Scale: 10,000 and 100,000 skills", rows: rowsFor(measured), notes: notesFor() };
  } finally {
    restore();
  }
}

async function measureSize(size) {
  const root = ensureLibrary(size);
  const sources = [{ path: root, watch: true }];
  const discovery = await measureInterleaved(
    [
      { label: "cold", run: skillsetCold(sources) },
      { label: "floor", run: rawFloor([root]) },
    ],
    { iterations: ROUNDS[size] },
  );
  const stats = (label, key = "samples") => summarize(discovery.get(label)[key]).median;
  const blocks = [];
  for (let run = 0; run < 3; run++) blocks.push((await skillsetColdBlock(sources)()).ms);

  const catalog = createCatalog([createLocalSource({ path: root, watch: false })]);
  const { skills } = await catalog.refresh();
  const rescan = await measureRescan(catalog);
  catalog.close();
  const queries = queriesFor(skills);
  const builds = [];
  let ranker;
  for (let run = 0; run < RUNS; run++) {
    ranker = createLexicalRanker();
    collectGarbage();
    builds.push((await time(() => ranker(queries[0], skills, 5))).ms);
  }
  // A server searches all day: timed once the scorer's code is optimised, after other queries.
  for (const query of queriesFor(skills, 11).slice(0, WARM_UP_QUERIES)) await ranker(query, skills, 5);
  const searches = [];
  for (const query of queries) searches.push((await time(() => ranker(query, skills, 5))).ms);
  // The first search of a new ranker builds its index; how long it holds the event loop.
  const buildBlock = await longestBlock(() => createLexicalRanker()(queries[0], skills, 5));

  // The token counter is loaded once per process, before the timed renders.
  await renderCatalog(skills.slice(0, 10), { budget: DEFAULT_CATALOG_BUDGET });
  const renders = [];
  const render = () => renderCatalog(skills, { budget: DEFAULT_CATALOG_BUDGET, searchTool: "search_skills" });
  // The first render of a snapshot is what a host pays (it keeps the text per catalog version);
  // later renders of the same list find its paths flattened and its skills in the cache.
  const renderFirst = (await time(render)).ms;
  for (let run = 0; run < RUNS; run++) renders.push((await time(render)).ms);
  const renderBlock = await longestBlock(render);
  const engine = await measureEngine(root);

  return {
    size,
    cold: stats("cold"),
    floor: stats("floor"),
    coldCpu: stats("cold", "cpuSamples"),
    floorCpu: stats("floor", "cpuSamples"),
    block: Math.max(...blocks),
    buildBlock,
    renderBlock,
    build: median(builds),
    searchP50: median(searches),
    searchP99: quantile(searches, 0.99),
    render: median(renders),
    renderFirst,
    engine,
    ...rescan,
    shapes: await measureShapes(size),
    memory: memoryPerSkill(root),
    callMicros: await measureCall([root], false),
    mcp: await measureMcp(
      root,
      skills.map((skill) => skill.name),
    ),
  };
}

async function measureShapes(size) {
  const shapes = {};
  for (const shape of SHAPES) shapes[shape] = await measureShape(size, shape);
  return shapes;
}

// The engine over a watched catalog, as a host holds it: its first refresh versions the catalog
// (a hash of every skill's metadata), and a load of a name the catalog lacks asks the sources
// again (a skill may have been written since); the first such load also builds the search index
// for its closest matches, so the misses after it are timed.
async function measureEngine(root) {
  const catalog = createCatalog([createLocalSource({ path: root, watch: true })]);
  await catalog.refresh();
  await catalog.refresh(); // the second scan starts the watchers
  const engine = createSkillEngine();
  let refreshed;
  const refreshBlock = await longestBlock(async () => {
    refreshed = await engine.refresh(catalog, { loaded: [] });
  });
  const state = { skills: refreshed.skills, catalogVersion: refreshed.version, loaded: [], resources: {} };
  const miss = (at) =>
    engine.load({ state, sources: async () => catalog.sources }, { skill: `no-such-skill-${at}`, id: `miss-${at}` });
  await miss(0);
  const misses = [];
  for (let run = 1; run <= RUNS; run++) misses.push((await time(() => miss(run))).ms);
  catalog.close();
  return { refreshBlock, miss: median(misses) };
}

// The longest stretch `work` kept the event loop busy, in ms.
const longestBlock = async (work) => (await timeAndBlock(work)).block;

function rowsFor(measured) {
  const row = (metric, pick, format, goal, met) => {
    const values = measured.map(pick);
    return {
      measure: metric,
      "10,000": format(values[0]),
      "100,000": format(values[1]),
      "100k / 10k": formatRatio(values[1] / values[0]),
      goal,
      met: met === undefined ? "" : measured.every((entry) => met(pick(entry))) ? "met" : "MISSED",
    };
  };
  const ms = (value) => formatMs(value);
  const ratio = (value) => formatRatio(value);
  const percent = (value) => `${Math.round(value * 100)}%`;
  const bytes = (value) => `${Math.round(value).toLocaleString("en-US")} B`;
  const ping = (label) => (entry) => entry.mcp.calls[label] / entry.mcp.calls.ping;
  const echo = (label, floor) => (entry) => entry.mcp.calls[label] / entry.mcp.calls[floor];
  const block = (metric, pick) => row(metric, pick, ms, "≤ 50 ms", (v) => v <= TARGETS.blockMs);
  const render = (metric, pick) => row(metric, pick, ms, "≤ 50 ms", (v) => v <= TARGETS.renderMs);
  return [
    row("cold discovery (ms)", (entry) => entry.cold, ms, "", undefined),
    row("raw floor (ms)", (entry) => entry.floor, ms, "", undefined),
    row(
      "cold discovery / raw floor",
      (e) => e.cold / e.floor,
      ratio,
      `≤ ${TARGETS.vsFloor}x`,
      (v) => v <= TARGETS.vsFloor,
    ),
    row("… in CPU time", (e) => e.coldCpu / e.floorCpu, ratio, "", undefined),
    row("index build (ms)", (e) => e.build, ms, "", undefined),
    row(
      "index build / cold discovery",
      (e) => e.build / e.cold,
      percent,
      "≤ 50%",
      (v) => v <= TARGETS.buildShare,
    ),
    row(
      "heap per skill after discovery",
      (e) => e.memory.heap,
      bytes,
      "≤ 2,048 B",
      (v) => v <= TARGETS.heapPerSkill,
    ),
    row("RSS per skill after discovery", (e) => e.memory.rss, bytes, "", undefined),
    row("heap per skill with the search index", (e) => e.memory.heapWithIndex, bytes, "", undefined),
    row("RSS per skill with the search index", (e) => e.memory.rssWithIndex, bytes, "", undefined),
    render("catalog over budget, render (ms)", (e) => e.render),
    render("… its first render of a snapshot (ms)", (e) => e.renderFirst),
    row(
      "search_skills p50 (ms)",
      (e) => e.searchP50,
      ms,
      "≤ 1 ms",
      (v) => v <= TARGETS.searchP50,
    ),
    row(
      "search_skills p99 (ms)",
      (e) => e.searchP99,
      ms,
      "≤ 5 ms",
      (v) => v <= TARGETS.searchP99,
    ),
    row(
      "middleware per model call (µs)",
      (e) => e.callMicros,
      (v) => v.toFixed(1),
      "≤ 50 µs",
      (v) => v <= 50,
    ),
    block("longest event-loop block: cold discovery (ms)", (e) => e.block),
    block("… first search, building the index (ms)", (e) => e.buildBlock),
    block("… catalog over budget (ms)", (e) => e.renderBlock),
    block("… the engine's first refresh (ms)", (e) => e.engine.refreshBlock),
    row("load_skill of a name not in the catalog (ms)", (e) => e.engine.miss, ms, "", undefined),
    row("polling re-scan, unchanged (ms)", (e) => e.rescan, ms, "", undefined),
    block("… its longest block (ms)", (e) => e.rescanBlock),
    ...SHAPES.flatMap((shape) => {
      const of = (key) => (e) => e.shapes[shape][key];
      return [
        row(`${shape} library: cold discovery (ms)`, of("cold"), ms, "", undefined),
        block("… its longest block (ms)", of("coldBlock")),
        render("… catalog render, first of a snapshot (ms)", of("renderFirst")),
        render("… catalog render, median (ms)", of("render")),
        block("… the render's longest block (ms)", of("renderBlock")),
        row("… polling re-scan (ms)", of("rescan"), ms, "", undefined),
        block("… its longest block (ms)", of("rescanBlock")),
      ];
    }),
    row("`skillset mcp` start-up (ms)", (e) => e.mcp.startupMs, ms, "", undefined),
    row("… its check of every skill's files ended (ms)", (e) => e.mcp.checkedMs, ms, "", undefined),
    row("`skills/list` first page (ms)", (e) => e.mcp.pages.first.ms, ms, "", undefined),
    row("`skills/list` middle page (ms)", (e) => e.mcp.pages.middle.ms, ms, "", undefined),
    row("`skills/list` last page (ms)", (e) => e.mcp.pages.last.ms, ms, "", undefined),
    row("MCP ping (ms)", (e) => e.mcp.calls.ping, ms, "", undefined),
    row("MCP load_skill / ping", ping("load_skill"), ratio, "≤ 1.5x", (v) => v <= TARGETS.vsPing),
    row("MCP skills/get / ping", ping("skills/get"), ratio, "≤ 1.5x", (v) => v <= TARGETS.vsPing),
    row("… echo of load_skill's answer / ping", ping("echo tool, load_skill's answer size"), ratio, "", undefined),
    row("MCP load_skill / its echo", echo("load_skill", "echo tool, load_skill's answer size"), ratio, "", undefined),
    row(
      "MCP skills/get / its echo",
      echo("skills/get", "echo request, skills/get's answer size"),
      ratio,
      "",
      undefined,
    ),
  ];
}

function notesFor() {
  return [
    "",
    `Generated libraries (bench/generate-library.mjs), cached under the OS temp folder by size and format. Cold discovery against the raw floor: ${ROUNDS[10_000]} and ${ROUNDS[100_000]} interleaved rounds (medians), GC between runs, as in the Discovery table. Index build: the first search of a new lexical ranker, median of ${RUNS}. Search: 400 queries of 2–5 words from the library's descriptions, limit 5, after ${WARM_UP_QUERIES} others (as the middleware row's calls follow 50 others). Catalog: \`renderCatalog\` with the default budget (${DEFAULT_CATALOG_BUDGET.toLocaleString("en-US")} tokens) and \`search_skills\` named, the token counter loaded before: the first render of the discovered snapshot, then the median of ${RUNS} more. Middleware: \`wrapModelCall\` with the default budget, median of 500 calls.`,
    `- Layouts: "grouped" names its skills by a first word (\`azure-*\`, a few dozen, groups of very different sizes, a tenth without one), "collections" puts them in \`<owner>-repo-<n>/<name>\` folders of 1 to 400 (a mirror of many repositories, read with \`recursive\`): cold discovery 3 times (median, and the longest block), the render as above (first, then the median of 3 more), and a polling re-scan of the unchanged library (a source that does not watch checks every \`SKILL.md\`'s stamp; median and longest block of 3, also of the flat library).`,
    "- Memory: a new process per size; heap is `heapUsed` plus `arrayBuffers` (the index keeps its postings in typed arrays), after two forced collections, minus the same before discovery; RSS likewise.",
    "- Event-loop blocks: `monitorEventLoopDelay({ resolution: 1 })`'s largest delay during the work (cold discovery: the largest of 3 runs). The engine's first refresh: `engine.refresh` of a watched catalog already scanned twice, which versions the catalog by a hash of every skill's metadata.",
    `- A name not in the catalog: \`engine.load\` of an unknown name over that watched catalog, which asks the sources again before it refuses (a skill may have been written since), median of ${RUNS} after a first one (which builds the search index for the closest matches).`,
    `- MCP: the built CLI as a process over stdio; start-up is spawning it until it answers \`initialize\` (it scans the library first); each \`skills/list\` page is the median of ${PAGE_NOTE} requests with a cursor at the start, the middle and the end; ping, load_skill and skills/get are interleaved, ${100} calls each, every call naming another skill, with a bare MCP SDK server in a process of its own answering a tool call as long as the last load_skill answer's text and a request as long as the last skills/get answer's JSON ("its echo": what the SDK and the pipe cost to carry that answer, with no work behind it). Pages and calls are measured once the server's check, after it starts serving, of which skills the Skills extension cannot serve has ended (it lists every skill's files in 2 ms slices, and a request meanwhile may wait for one; the row "its check … ended" is from spawning the server until it says so).`,
  ];
}

const PAGE_NOTE = 7;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { formatTable } = await import("./stats.mjs");
  const started = performance.now();
  const { title, rows, notes } = await scaleTable();
  console.log(
    [`## ${title}`, "", formatTable(rows), ...notes, "", `(${formatMs((performance.now() - started) / 1000)} s)`].join(
      "\n",
    ),
  );
}
