// Table "Token counting": the o200k_base counter every catalog budget uses, against js-tiktoken's
// encoder over the same ranks: loading it in a new process (what each agent's first catalog
// pays), the memory it keeps, and counting text line by line once loaded.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { measureInterleaved } from "./measure.mjs";
import { formatMs, formatRatio, median } from "./stats.mjs";

const SCRIPT = fileURLToPath(import.meta.url);
const DOCS = new URL("../docs/", import.meta.url);
const LOADS = 7;

/** The Token counting table, as run.mjs prints it. */
export async function tokenCountTable() {
  const loads = { skillset: [], "js-tiktoken": [] };
  for (let run = 0; run < LOADS; run++)
    for (const kind of run % 2 ? ["js-tiktoken", "skillset"] : ["skillset", "js-tiktoken"])
      loads[kind].push(loadInNewProcess(kind));
  const lines = docLines();
  // The counter the catalog uses, synchronous once loaded (countTokens awaits it per text).
  const { loadTokenCounter } = await import("../dist/core/text/count-tokens.js");
  const countTokensNow = await loadTokenCounter();
  const { Tiktoken } = await import("js-tiktoken/lite");
  const encoder = new Tiktoken((await import("js-tiktoken/ranks/o200k_base")).default);
  const counted = await measureInterleaved(
    [
      { label: "skillset", run: async () => timeLines(lines, (line) => countTokensNow(line)) },
      { label: "js-tiktoken", run: async () => timeLines(lines, (line) => encoder.encode(line, [], []).length) },
    ],
    { iterations: 7 },
  );
  const found = [...counted.get("skillset").found, ...counted.get("js-tiktoken").found];
  const rows = [
    row(
      "load in a new process, to the first count (ms)",
      (kind) => median(loads[kind].map((load) => load.ms)),
      formatMs,
    ),
    row(
      "heap kept once loaded (MB)",
      (kind) => median(loads[kind].map((load) => load.heapMb)),
      (mb) => mb.toFixed(1),
    ),
    row(
      "RSS added by loading (MB)",
      (kind) => median(loads[kind].map((load) => load.rssMb)),
      (mb) => mb.toFixed(1),
    ),
    row(
      `count ${lines.length.toLocaleString("en-US")} lines of docs/ one by one, loaded (ms)`,
      (kind) => median(counted.get(kind).samples),
      formatMs,
    ),
  ];
  return {
    title: "Token counting (o200k_base)",
    rows,
    notes: [
      "",
      `- Load: each run is a new Node process (${LOADS} of each, alternating) that times importing the ranks and building the counter up to its first count; heap and RSS are measured after a forced collection, against the same before loading. js-tiktoken builds \`new Tiktoken(o200k_base)\`; skillset keeps the ranks keyed by their base64 and merges a piece's bytes itself (\`core/text/piece-token-count.ts\`).`,
      `- Counting: every line of the docs counted one at a time, as the catalog counts its lines; skillset keeps each distinct piece's count, js-tiktoken encodes each line. Both gave ${found.length === 2 && found[0] === found[1] ? `the same total, ${found[0].toLocaleString("en-US")} tokens` : `different totals: ${found.join(" against ")}`}.`,
    ],
  };

  function row(measure, pick, format) {
    const ours = pick("skillset");
    const theirs = pick("js-tiktoken");
    return {
      measure,
      skillset: format(ours),
      "js-tiktoken": format(theirs),
      "skillset / js-tiktoken": formatRatio(ours / theirs),
    };
  }
}

function docLines() {
  return readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .flatMap((name) => readFileSync(new URL(name, DOCS), "utf8").split("\n"));
}

function timeLines(lines, count) {
  const start = performance.now();
  let found = 0;
  for (const line of lines) found += count(line);
  return { ms: performance.now() - start, found };
}

function loadInNewProcess(kind) {
  return JSON.parse(execFileSync(process.execPath, ["--expose-gc", SCRIPT, kind], { encoding: "utf8" }));
}

if (process.argv[1] === SCRIPT) {
  const kind = process.argv[2];
  const { countTokens } = await import("../dist/index.js");
  const { Tiktoken } = await import("js-tiktoken/lite");
  globalThis.gc();
  const before = process.memoryUsage();
  const start = performance.now();
  if (kind === "skillset") await countTokens("Extract text and tables from PDF files.");
  else {
    const ranks = (await import("js-tiktoken/ranks/o200k_base")).default;
    // Kept, as the catalog keeps its counter, so the heap measured holds it.
    globalThis.encoder = new Tiktoken(ranks);
    globalThis.encoder.encode("Extract text and tables from PDF files.", [], []);
  }
  const ms = performance.now() - start;
  globalThis.gc();
  const after = process.memoryUsage();
  const mb = (bytes) => bytes / 1024 / 1024;
  process.stdout.write(
    JSON.stringify({
      ms,
      heapMb: mb(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers),
      rssMb: mb(after.rss - before.rss),
    }),
  );
}
