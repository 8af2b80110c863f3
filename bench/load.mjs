// Table "Load": issue 10's load run, and issue 36's fleet. Four worker processes share one
// PostgreSQL checkpointer and one PostgresStore library (through deepagents' StoreBackend) and
// serve threads of four turns, turn k of thread t on worker (t + k) % 4, with parallel loads and
// unloads in one model message and at most three skills loaded. Workers join from the catalog
// snapshot kept in the store (createSnapshotSource, docs/fleet.md), which the run refreshes first
// as a fleet's deploy step would. Full run at 10,000 skills, a shorter one at 100,000. The
// scenario and its checks are test/langchain/fixtures/load-scenario.mjs, which
// test/langchain/load.int.test.ts runs small.
//
// Needs PostgreSQL (SKILLSET_TEST_PG_URL, default postgresql://postgres@127.0.0.1:5432/test);
// without it this says so and skips. Each library is written once, to the schema
// skillset_load_library_<size>, and kept (with its snapshot); each run's checkpoints get a schema
// that is dropped.
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import {
  ensureStoreLibrary,
  refreshSnapshot,
  runLoadScenario,
  SKILLS_ROOT,
  skillName,
  summarizeRun,
} from "../test/langchain/fixtures/load-scenario.mjs";
import { silenceWarnings } from "./contenders.mjs";
import { formatMs, formatTable, median, quantile } from "./stats.mjs";

const PG_URL = process.env.SKILLSET_TEST_PG_URL || "postgresql://postgres@127.0.0.1:5432/test";
const BASE = { workers: 4, turns: 4, maxLoaded: 3, concurrency: 4, seed: 10, timeoutMs: 600_000, overheadTurns: 60 };
// The 100,000-skill run is shorter. Both refresh the snapshot first: the writer's full scan reads
// the store's namespace itself (store-library-files.ts), seconds even at 100,000 skills.
const RUNS = [
  { ...BASE, librarySize: 10_000, threads: 400, refresh: "always" },
  { ...BASE, librarySize: 100_000, threads: 100, refresh: "always" },
];
// One worker joining alone is timed this many times (after the load run, one after another).
const ALONE_JOINS = 5;
const UNCHANGED_TURN_MAX_BYTES = 1024;
const REFUSALS = ["budget", "already-loaded", "already-loading", "busy", "not-loaded", "not-found"];
const librarySchema = (size) => `skillset_load_library_${size}`;

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
    const runs = [];
    const loadBefore = loadavg()[0];
    for (const scenario of RUNS) {
      const schema = librarySchema(scenario.librarySize);
      const written = await ensureStoreLibrary({ url: PG_URL, schema, count: scenario.librarySize });
      const run = await runLoadScenario({ url: PG_URL, librarySchema: schema, ...scenario });
      // A fleet scaling out: one more worker joins, alone, from the snapshot the run left.
      const alone = await joinsAlone(scenario, "snapshot", ALONE_JOINS);
      // After publishing one skill: its SKILL.md refreshed by path (here unchanged).
      const onePath = await refreshSnapshot(PG_URL, schema, { paths: [`${SKILLS_ROOT}${skillName(7)}/SKILL.md`] });
      runs.push({
        scenario,
        written,
        run,
        alone,
        onePath,
        summary: summarizeRun(run.records, scenario.maxLoaded),
        bytes: await snapshotBytes(schema),
      });
    }
    // How a worker joined before the snapshot: list the whole store, read every SKILL.md.
    const old = await joinAlone(RUNS[0], "listOnce");
    return { title: "Load (PostgreSQL)", rows: rowsFor(runs, old), notes: notesFor(runs, [loadBefore, loadavg()[0]]) };
  } finally {
    restore();
  }
}

// `count` joins of one worker alone, one after another: the median of each time.
async function joinsAlone(scenario, catalog, count) {
  const joins = [];
  for (let run = 0; run < count; run++) joins.push(await joinAlone(scenario, catalog));
  const middle = (key) => median(joins.map((join) => join[key]));
  return { startupMs: middle("startupMs"), firstTurnMs: middle("firstTurnMs"), joinMs: middle("joinMs") };
}

// One worker started alone, timed as the load run times each of its workers.
async function joinAlone(scenario, catalog) {
  const schema = librarySchema(scenario.librarySize);
  const run = await runLoadScenario({
    url: PG_URL,
    librarySchema: schema,
    ...scenario,
    workers: 1,
    threads: 0,
    overheadTurns: 0,
    refresh: "if-missing",
    catalog,
  });
  return run.joins[0];
}

// The size of the stored snapshot (the value of its newest item), in bytes as PostgreSQL keeps it.
async function snapshotBytes(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT pg_column_size(value) AS bytes FROM "${schema}".store WHERE namespace_path = 'skillset:snapshots' AND key LIKE '%@%' ORDER BY updated_at DESC LIMIT 1`,
    );
    return rows[0] ? Number(rows[0].bytes) : Number.NaN;
  } finally {
    await client.end();
  }
}

function rowsFor(runs, oldJoin) {
  const count = (value) => Math.round(value).toLocaleString("en-US");
  const seconds = (ms) => (ms / 1000).toFixed(2);
  const joinTimes = (join) => `${seconds(join.startupMs)} / ${seconds(join.firstTurnMs)} / ${seconds(join.joinMs)}`;
  const row = (Metric, value, Target = "") => {
    const entry = { Metric };
    for (const run of runs) entry[`${count(run.scenario.librarySize)} skills`] = value(run);
    return { ...entry, Target };
  };
  const outcome = (run, name) => run.summary.outcomes[name] ?? 0;
  const medianMax = (run, key, format) => {
    const values = run.run.joins.map((join) => join[key]);
    return `${format(median(values))} / ${format(Math.max(...values))}`;
  };
  const turnMs = (run) => run.run.records.map((record) => record.ms);
  const stats = (values) =>
    values.length === 0 ? "n/a" : `${count(mean(values))} / ${count(median(values))} / ${count(Math.max(...values))}`;
  const skillsBytes = (run, changes) =>
    stats(run.run.records.filter((record) => record.changesSkills === changes).map((record) => record.bytes.skills));
  return [
    row(
      "workers / threads / turns per thread / max loaded",
      ({ scenario }) => `${scenario.workers} / ${count(scenario.threads)} / ${scenario.turns} / ${scenario.maxLoaded}`,
    ),
    row("snapshot refresh by the writer, a full scan of the library (s)", ({ run }) =>
      run.refresh.skipped
        ? "kept from an earlier run"
        : `${seconds(run.refresh.ms)}${run.refresh.written ? " (written)" : " (unchanged)"}`,
    ),
    row("snapshot refresh of one skill by path, after the run (s)", ({ onePath }) => seconds(onePath.ms)),
    row("snapshot size in PostgreSQL (MB)", ({ bytes }) => (bytes / 1e6).toFixed(1)),
    row("start-up per worker, spawned to agent built, 4 at once: median / max (s)", (run) =>
      medianMax(run, "startupMs", seconds),
    ),
    row("first turn (reads the snapshot, builds the catalog), 4 at once: median / max (s)", (run) =>
      medianMax(run, "firstTurnMs", seconds),
    ),
    row("join, spawned to first turn answered, 4 at once: median / max (s)", (run) =>
      medianMax(run, "joinMs", seconds),
    ),
    row(
      "turn overhead with the scripted model, one turn at a time: p50 / p99 (ms)",
      ({ run }) => `${formatMs(median(run.overheadMs))} / ${formatMs(quantile(run.overheadMs, 0.99))}`,
      "p50 ≤ 200",
    ),
    row(
      `turn latency in the load run, ${BASE.workers * BASE.concurrency} turns at once: p50 / p99 (ms)`,
      (run) => `${formatMs(median(turnMs(run)))} / ${formatMs(quantile(turnMs(run), 0.99))}`,
    ),
    row(
      "turns run / tool calls",
      ({ summary }) =>
        `${count(summary.turns)} / ${count(Object.values(summary.outcomes).reduce((sum, value) => sum + value, 0))}`,
    ),
    row("loads / unloads / searches", (run) =>
      ["loaded", "unloaded", "search"].map((name) => count(outcome(run, name))).join(" / "),
    ),
    row(
      `refusals: ${REFUSALS.join(" / ")}`,
      (run) => REFUSALS.map((name) => count(outcome(run, name))).join(" / "),
      "as the script implies",
    ),
    row("calls not as the script implies", ({ summary }) => count(summary.problems.mismatchedOutcomes), "0"),
    row(
      "lost / extra / duplicated loads (over all states)",
      ({ summary: { problems } }) => `${problems.lostLoads} / ${problems.extraLoads} / ${problems.duplicatedLoads}`,
      "0 / 0 / 0",
    ),
    row(
      "states over budget / load results not the skill's content / wrong resources",
      ({ summary: { problems } }) =>
        `${problems.overBudgetStates} / ${problems.wrongLoadResults} / ${problems.wrongResources}`,
      "0 / 0 / 0",
    ),
    row("states checked (before, at each model call, after)", ({ summary }) => count(summary.statesChecked)),
    row("catalog versions seen by all workers", ({ summary }) => count(summary.catalogVersions), "1"),
    row(
      "run time (s) / turns per second",
      ({ run, summary }) =>
        `${(run.elapsedMs / 1000).toFixed(1)} / ${(summary.turns / (run.elapsedMs / 1000)).toFixed(1)}`,
    ),
    row("checkpoint bytes per turn, all channels: mean / p50 / max", ({ run }) =>
      stats(run.records.map((record) => record.bytes.total)),
    ),
    row("skills-state bytes, turns that load or unload: mean / p50 / max", (run) => skillsBytes(run, true)),
    row(
      "skills-state bytes, turns that change no skills: mean / p50 / max",
      (run) => skillsBytes(run, false),
      `max ≤ ${count(UNCHANGED_TURN_MAX_BYTES)}`,
    ),
    row(
      `one worker joining alone from the snapshot, median of ${ALONE_JOINS}: start-up / first turn / join (s)`,
      ({ alone }) => joinTimes(alone),
      "join ≤ 3 at 10,000",
    ),
    row(
      "one worker joining alone without the snapshot (lists the store, reads every SKILL.md): start-up / first turn / join (s)",
      ({ scenario }) => (scenario === RUNS[0] ? joinTimes(oldJoin) : "not run"),
    ),
  ];
}

function notesFor(runs, load) {
  const [full] = runs;
  const byWorker = full.run.workers.map((pid, worker) => {
    const records = full.run.records.filter((record) => record.worker === worker);
    const join = full.run.joins[worker];
    return {
      Worker: worker + 1,
      "start-up (s)": (join.startupMs / 1000).toFixed(2),
      "first turn (s)": (join.firstTurnMs / 1000).toFixed(2),
      turns: records.length,
      "turn p50 (ms)": formatMs(median(records.map((record) => record.ms))),
      "checkpoint bytes": sum(records.map((record) => record.bytes.total)).toLocaleString("en-US"),
    };
  });
  const clean = runs.every((run) => Object.values(run.summary.problems).every((value) => value === 0));
  return [
    "",
    `${clean ? "Every" : "NOT every"} thread ended each turn as its script implies (${runs.map((run) => run.summary.statesChecked.toLocaleString("en-US")).join(" and ")} states compared). Each worker runs up to ${full.scenario.concurrency} turns at once; about one turn in seven has no tool calls, the others one or two model messages of two to five parallel load_skill / unload_skill / search_skills calls.`,
    "Workers join from the catalog snapshot in the store (createSnapshotSource): a small head item, then the snapshot (verified against its digest), which also holds the token counts its catalog is made of, so no worker loads the encoding to fit the catalog to its budget; a loaded skill's SKILL.md is one store read, checked against its digest, and its files come from the snapshot. The writer's full refresh lists the library's namespace through the store itself, 20,000 items a query, rather than through StoreBackend (100 items a query, each SKILL.md one more); a fleet runs it once per change of the library, not per worker.",
    `Start-up is spawning the process to its agent built (Node, LangChain, deepagents and pg imported, the checkpointer's tables checked); the first turn includes reading the snapshot, building the catalog and its search index. Turn overhead is ${BASE.overheadTurns} turns run one at a time across the fleet after the join (a load and a search, then an unload), timed from the parent: the agent loop, the skills middleware, the checkpointer's reads and writes and the worker's getState before and after; the load run's latency adds the wait for the CPU with ${BASE.workers * BASE.concurrency} turns in flight on this machine's 2 cores. Checkpoint bytes are read from PostgreSQL after each turn; skills state is the channels skillsLoaded, skillResources and _skillsCatalogVersion.`,
    `The machine's load average (1 minute) was ${load.map((value) => value.toFixed(1)).join(" at the start and ")} at the end, on ${availableParallelism()} cores: joins and latencies move with it.`,
    ...runs.map(({ scenario, written }) =>
      written
        ? `The ${scenario.librarySize.toLocaleString("en-US")}-skill library was written to the schema ${librarySchema(scenario.librarySize)} in this run.`
        : `The ${scenario.librarySize.toLocaleString("en-US")}-skill library was already in the schema ${librarySchema(scenario.librarySize)}.`,
    ),
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
  if (await postgresAnswers()) {
    const { title, rows, notes } = await loadTable();
    console.log([`## ${title}`, "", formatTable(rows), ...notes].join("\n"));
  } else {
    console.log(
      `Skipped: the Load table, because PostgreSQL is not answering at ${PG_URL} (set SKILLSET_TEST_PG_URL to another server).`,
    );
  }
}
