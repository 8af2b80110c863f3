// Table "Code sandbox": what running the model's code in the QuickJS-NG WebAssembly sandbox costs:
// a thread's first run (a new WebAssembly instance), a trivial run in a warm sandbox, a tool call's
// round trip, a module import, and the memory one live sandbox holds.
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createCodeSandboxPool } from "../dist/exec/code-sandbox/code-sandbox-pool.js";
import { collectGarbageAndSettle } from "./measure.mjs";
import { formatMs, median } from "./stats.mjs";

const STARTS = 30;
const WARM_RUNS = 300;
const TOOL_CALLS = 200;
const LIVE = 20;

const host = {
  tools: { lookup: async (args) => ({ id: args.id, ok: true }) },
  async loadModule(specifier) {
    if (specifier === "@/skills/csv") return { source: "export const split = (line) => line.split(',');" };
    return { error: `"${specifier}" is not a loaded skill's module.` };
  },
};

async function timeRun(pool, thread, code) {
  const start = performance.now();
  const outcome = await pool.run(thread, code, host);
  const ms = performance.now() - start;
  if (!outcome.ok) throw new Error(`bench run failed: ${outcome.error.kind} ${outcome.error.message}`);
  return ms;
}

/** Median start-up of a thread's sandbox: its first run, WebAssembly instance included. */
async function startUp() {
  const pool = createCodeSandboxPool({ maxSandboxes: STARTS + 1 });
  await timeRun(pool, "warm-up", "return 1;");
  const samples = [];
  for (let i = 0; i < STARTS; i++) samples.push(await timeRun(pool, `start-${i}`, "return 1;"));
  pool.close();
  return median(samples);
}

/** Median time of `code` run again and again in one warm thread. */
async function warm(keepValues, code, runs = WARM_RUNS) {
  const pool = createCodeSandboxPool({ keepValues });
  for (let i = 0; i < 20; i++) await timeRun(pool, "t", code);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await timeRun(pool, "t", code));
  pool.close();
  return median(samples);
}

/** Bytes of process memory (RSS, and memory outside the JS heap) per live sandbox, over LIVE of them. */
async function memoryPerSandbox() {
  await collectGarbageAndSettle();
  const before = process.memoryUsage();
  const pool = createCodeSandboxPool({ maxSandboxes: LIVE });
  for (let i = 0; i < LIVE; i++) await timeRun(pool, `live-${i}`, "globalThis.data = [1, 2, 3]; return 1;");
  await collectGarbageAndSettle();
  const after = process.memoryUsage();
  pool.close();
  return { rss: (after.rss - before.rss) / LIVE, external: (after.external - before.external) / LIVE };
}

/** The Code sandbox rows: measure, value, note. */
export async function codeSandboxRows() {
  const start = await startUp();
  const fresh = await warm(false, "return 1;");
  const kept = await warm(true, "return 1;");
  const calls = await warm(
    false,
    `for (let i = 0; i < ${TOOL_CALLS}; i++) await tools.lookup({ id: i }); return 1;`,
    50,
  );
  const imported = await warm(false, "import { split } from '@/skills/csv'; return split('a,b').length;");
  // Each round in a fresh process: freed WebAssembly memory is not handed back at once, so rounds in one
  // process would measure each other's leftovers.
  const memories = [];
  for (let i = 0; i < 5; i++) {
    const output = execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), MEMORY_ROUND]);
    memories.push(JSON.parse(String(output)));
  }
  const memory = { rss: median(memories.map((m) => m.rss)), external: median(memories.map((m) => m.external)) };
  const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  return [
    {
      measure: "sandbox start-up (a thread's first run)",
      value: `${formatMs(start)} ms`,
      note: "new WebAssembly instance, runtime, context, prelude",
    },
    {
      measure: "trivial run, keepValues: false (default)",
      value: `${formatMs(fresh)} ms`,
      note: "fresh context and prelude per run",
    },
    { measure: "trivial run, keepValues: true", value: `${formatMs(kept)} ms`, note: "the thread's context kept" },
    {
      measure: "tool call round trip",
      value: `${formatMs((calls - fresh) / TOOL_CALLS)} ms`,
      note: `${TOOL_CALLS} awaited calls in one run, less a trivial run`,
    },
    {
      measure: "run importing a skill module",
      value: `${formatMs(imported)} ms`,
      note: "loadModule, parse, link, evaluate",
    },
    {
      measure: "memory per live sandbox (RSS)",
      value: mib(memory.rss),
      note: `median of 5 processes, each with ${LIVE} live sandboxes`,
    },
    {
      measure: "memory per live sandbox (external)",
      value: mib(memory.external),
      note: "WebAssembly memory reserved (16 MiB initial), mostly untouched",
    },
  ];
}

/** The Code sandbox table with its notes, as run.mjs prints tables. */
export async function codeSandboxTable() {
  return {
    title: "Code sandbox",
    rows: await codeSandboxRows(),
    notes: [
      "",
      `Medians: start-up over ${STARTS} threads, warm runs over ${WARM_RUNS} runs of one thread (50 for the tool calls). QuickJS-NG 0.12.1 (@jitl/quickjs-ng-wasmfile-release-sync), one WebAssembly instance per thread.`,
    ],
  };
}

const MEMORY_ROUND = "--memory-round";
if (process.argv[2] === MEMORY_ROUND) console.log(JSON.stringify(await memoryPerSandbox()));
