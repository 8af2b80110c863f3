// Table "Load": issue 10's load run. Four worker processes share one PostgreSQL checkpointer and
// one PostgresStore library of 10,000 skills (through deepagents' StoreBackend) and serve 400
// threads of four turns, turn k of thread t on worker (t + k) % 4, with parallel loads and unloads
// in one model message and at most three skills loaded. The scenario and its checks are
// test/langchain/fixtures/load-scenario.mjs, which test/langchain/load.int.test.ts runs small.
//
// Needs PostgreSQL (SKILLSET_TEST_PG_URL, default postgresql://postgres@127.0.0.1:5432/test);
// run.mjs runs it only when that answers. The library is written once, to the schema
// skillset_load_library_10000, and kept; each run's checkpoints get a schema that is dropped.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend } from "deepagents";
import pg from "pg";
import { createBackendSource, createCatalog } from "../dist/index.js";
import {
  ensureStoreLibrary,
  runLoadScenario,
  skillName,
  SKILLS_ROOT,
  STORE_NAMESPACE,
  summarizeRun,
} from "../test/langchain/fixtures/load-scenario.mjs";
import { silenceWarnings } from "./contenders.mjs";
import { formatMs, formatTable, median, quantile } from "./stats.mjs";

const PG_URL = process.env.SKILLSET_TEST_PG_URL || "postgresql://postgres@127.0.0.1:5432/test";
const SCENARIO = {
  workers: 4,
  librarySize: 10_000,
  threads: 400,
  turns: 4,
  maxLoaded: 3,
  concurrency: 4,
  seed: 10,
  timeoutMs: 600_000,
};
const LIBRARY_SCHEMA = `skillset_load_library_${SCENARIO.librarySize}`;
const UNCHANGED_TURN_MAX_BYTES = 1024;
const REFUSALS = ["budget", "already-loaded", "already-loading", "busy", "not-loaded", "not-found"];

/** Whether the PostgreSQL server of the load run answers (within two seconds). */
export async function postgresAnswers(url = PG_URL) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The Load table with its notes, as run.mjs prints it. */
export async function loadTable() {
  const restore = silenceWarnings();
  try {
    const written = await ensureStoreLibrary({ url: PG_URL, schema: LIBRARY_SCHEMA, count: SCENARIO.librarySize });
    const listing = await measureStoreListing();
    const run = await runLoadScenario({ url: PG_URL, librarySchema: LIBRARY_SCHEMA, ...SCENARIO });
    const summary = summarizeRun(run.records, SCENARIO.maxLoaded);
    return { title: "Load (PostgreSQL)", rows: rowsFor(run, summary, listing), notes: notesFor(run, summary, written) };
  } finally {
    restore();
  }
}

// What every invocation and every load would cost without the workers' `listOnce`: StoreBackend
// lists a folder by reading the whole namespace, content included, 100 items a query.
async function measureStoreListing() {
  const store = PostgresStore.fromConnString(PG_URL, { schema: LIBRARY_SCHEMA });
  try {
    const backend = new StoreBackend({ store, namespace: STORE_NAMESPACE });
    const catalog = createCatalog([createBackendSource({ backend, path: SKILLS_ROOT, recursive: true })]);
    let started = performance.now();
    await catalog.refresh();
    const coldMs = performance.now() - started;
    started = performance.now();
    await catalog.refresh();
    const rescanMs = performance.now() - started;
    started = performance.now();
    await backend.ls(`${SKILLS_ROOT}${skillName(0)}/`);
    return { coldMs, rescanMs, lsMs: performance.now() - started };
  } finally {
    await store.stop();
  }
}

function rowsFor(run, summary, listing) {
  const { records } = run;
  const count = (value) => Math.round(value).toLocaleString("en-US");
  const stats = (values) => `${count(mean(values))} / ${count(median(values))} / ${count(Math.max(...values))}`;
  const outcome = (name) => summary.outcomes[name] ?? 0;
  const calls = Object.values(summary.outcomes).reduce((sum, value) => sum + value, 0);
  const { problems } = summary;
  const changing = records.filter((record) => record.changesSkills).map((record) => record.bytes.skills);
  const unchanged = records.filter((record) => !record.changesSkills).map((record) => record.bytes.skills);
  const seconds = run.elapsedMs / 1000;
  return [
    {
      Metric: "workers / threads / turns per thread / library skills / max loaded",
      Value: `${SCENARIO.workers} / ${count(SCENARIO.threads)} / ${SCENARIO.turns} / ${count(SCENARIO.librarySize)} / ${SCENARIO.maxLoaded}`,
      Target: "",
    },
    { Metric: "turns run / tool calls", Value: `${count(summary.turns)} / ${count(calls)}`, Target: "" },
    {
      Metric: "loads / unloads / searches",
      Value: `${count(outcome("loaded"))} / ${count(outcome("unloaded"))} / ${count(outcome("search"))}`,
      Target: "",
    },
    {
      Metric: `refusals: ${REFUSALS.join(" / ")}`,
      Value: REFUSALS.map((name) => count(outcome(name))).join(" / "),
      Target: "as the script implies",
    },
    { Metric: "calls not as the script implies", Value: count(problems.mismatchedOutcomes), Target: "0" },
    {
      Metric: "lost / extra / duplicated loads (over all states)",
      Value: `${problems.lostLoads} / ${problems.extraLoads} / ${problems.duplicatedLoads}`,
      Target: "0 / 0 / 0",
    },
    {
      Metric: "states over budget / load results not the skill's content / wrong resources",
      Value: `${problems.overBudgetStates} / ${problems.wrongLoadResults} / ${problems.wrongResources}`,
      Target: "0 / 0 / 0",
    },
    { Metric: "states checked (before, at each model call, after)", Value: count(summary.statesChecked), Target: "" },
    { Metric: "catalog versions seen by all workers", Value: count(summary.catalogVersions), Target: "1" },
    {
      Metric: "start-up, all workers at once: list the store, read every SKILL.md (s)",
      Value: (run.startupMs / 1000).toFixed(1),
      Target: "",
    },
    {
      Metric: "run time (s) / turns per second",
      Value: `${seconds.toFixed(1)} / ${(summary.turns / seconds).toFixed(1)}`,
      Target: "",
    },
    {
      Metric: "turn latency p50 / p99 (ms)",
      Value: `${formatMs(median(records.map((record) => record.ms)))} / ${formatMs(
        quantile(
          records.map((record) => record.ms),
          0.99,
        ),
      )}`,
      Target: "",
    },
    {
      Metric: "checkpoint bytes per turn, all channels: mean / p50 / max",
      Value: stats(records.map((record) => record.bytes.total)),
      Target: "",
    },
    { Metric: "skills-state bytes, turns that load or unload: mean / p50 / max", Value: stats(changing), Target: "" },
    {
      Metric: "skills-state bytes, turns that change no skills: mean / p50 / max",
      Value: stats(unchanged),
      Target: `max ≤ ${count(UNCHANGED_TURN_MAX_BYTES)}`,
    },
    {
      Metric: "StoreBackend, no listOnce: cold scan / re-scan / ls of one skill (ms)",
      Value: `${count(listing.coldMs)} / ${count(listing.rescanMs)} / ${count(listing.lsMs)}`,
      Target: "",
    },
  ];
}

function notesFor(run, summary, written) {
  const byTurn = Array.from({ length: SCENARIO.turns }, (_, turn) => {
    const records = run.records.filter((record) => record.turn === turn);
    return {
      Turn: turn + 1,
      "checkpoint bytes, mean": Math.round(mean(records.map((record) => record.bytes.total))).toLocaleString("en-US"),
      "skills-state bytes, mean": Math.round(mean(records.map((record) => record.bytes.skills))).toLocaleString(
        "en-US",
      ),
      "skills-state bytes, max": Math.max(...records.map((record) => record.bytes.skills)).toLocaleString("en-US"),
    };
  });
  const byWorker = run.workers.map((pid, worker) => {
    const records = run.records.filter((record) => record.worker === worker);
    const loads = records.reduce(
      (sum, record) => sum + Object.values(record.actual.outcomes).filter((outcome) => outcome === "loaded").length,
      0,
    );
    return {
      Worker: worker + 1,
      turns: records.length,
      loads,
      "turn p50 (ms)": formatMs(median(records.map((record) => record.ms))),
      "checkpoint bytes": sum(records.map((record) => record.bytes.total)).toLocaleString("en-US"),
    };
  });
  const clean = Object.values(summary.problems).every((value) => value === 0);
  return [
    "",
    `${clean ? "Every" : "NOT every"} thread ended each turn as its script implies (${summary.statesChecked.toLocaleString("en-US")} states compared). Each worker runs up to ${SCENARIO.concurrency} turns at once; about one turn in seven has no tool calls, the others one or two model messages of two to five parallel load_skill / unload_skill / search_skills calls.`,
    "Checkpoint bytes are read from PostgreSQL after each turn (checkpoint_blobs and checkpoint_writes of the thread, checkpoints as JSON text); skills state is the channels skillsLoaded, skillResources and _skillsCatalogVersion. All channels grow with the conversation, since LangGraph stores the whole messages list at each step.",
    "Workers list the store once (`listOnce` in agent-worker.mjs): the last row is what StoreBackend costs per invocation (re-scan) and per load (ls) without it.",
    written
      ? `The library was written to the schema ${LIBRARY_SCHEMA} in this run.`
      : `The library was already in the schema ${LIBRARY_SCHEMA}.`,
    "",
    formatTable(byTurn),
    "",
    formatTable(byWorker),
  ];
}

function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

function mean(values) {
  return values.length === 0 ? Number.NaN : sum(values) / values.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!(await postgresAnswers()))
    throw new Error(`PostgreSQL does not answer at ${PG_URL}; set SKILLSET_TEST_PG_URL to another server.`);
  const { title, rows, notes } = await loadTable();
  console.log([`## ${title}`, "", formatTable(rows), ...notes].join("\n"));
}
