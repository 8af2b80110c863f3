// Table "Text protocol": the parser's time per model reply (1 KB, 1 MB, 10,000 tags), and what
// createSkillRunner adds to a turn besides the model, per step, over a library of 1,000 skills.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseSkillInstructions } from "../dist/host.js";
import { createSkillRunner } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { ensureLibrary } from "./generate-library.mjs";
import { measureInterleaved } from "./measure.mjs";
import { formatMs, quantile } from "./stats.mjs";

const LIBRARY_SIZE = 1_000;
const RUNS = { iterations: 1_000, warmup: 100 };

/** The Text protocol table with its notes, as run.mjs prints it. */
export async function textProtocolTable() {
  const parser = measureParser();
  const runner = await measureRunner();
  const row = (measure, samples, note) => ({
    measure,
    p50: formatMicros(quantile(samples, 0.5)),
    p99: formatMicros(quantile(samples, 0.99)),
    note,
  });
  return {
    title: "Text protocol",
    rows: [
      row("parse a 1 KB reply", parser.small, "chatter, a fenced instruction, one in prose, one talked about"),
      row("parse a 1 MB reply", parser.large, "Markdown prose with inline code and HTML, 3 instructions"),
      row("parse 10,000 tags (330 KB)", parser.tags, "every tag an instruction"),
      row("runner: a step that answers", runner.answer, "catalog refresh, prompt, parse; the model excluded"),
      row("runner: a <use_skill> step", runner.load, "reads, renders and lists the skill"),
      row("runner: a <read_resource> step", runner.read, "reads one file"),
      row(
        "runner: an <execute_script> step",
        runner.script,
        "allow-list and executor call (an executor that returns at once)",
      ),
    ],
    notes: [
      "",
      `Parser times per reply; runner times per model call in a turn, with a scripted model that answers at once and a local source of ${LIBRARY_SIZE.toLocaleString("en-US")} skills (watched, so an unchanged re-scan is cheap). A step that runs an instruction is the turn's time less that of a turn that only answers. Times in µs unless marked ms.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Parser

const SMALL_REPLY = [
  "Sure! To answer that I first need the PDF skill's instructions, then its extraction options.",
  "",
  "```xml",
  "<use_skill>pdf-processing</use_skill>",
  "```",
  "",
  'While that loads: I will also check <read_resource skill="pdf-processing">assets/config.json</read_resource> so I know which pages are extracted.',
  'I could call `<execute_script skill="pdf-processing">scripts/extract.sh</execute_script>` right away, but the instructions may ask for flags first.',
  "",
  "Once the results are in, I will summarise the report in three bullet points: the headline numbers, what changed since the last quarter, and anything the",
  "reader should double-check. If the file turns out to be scanned images rather than text, I will say so and suggest running OCR first; guessing at text",
  "that was not extracted would be worse than no answer. Let me know if you want the tables too.",
].join("\n");

function largeReply() {
  const block =
    "## Section\n\nSome **Markdown** prose with `inline code`, a <b>bold</b> tag, an &amp; entity and a [link](https://example.com).\n\n```js\nconst x = a < b && c > d;\n```\n\n";
  const prose = block.repeat(Math.ceil(1_000_000 / block.length));
  return `<use_skill>pdf-processing</use_skill>\n${prose}\n<read_resource skill="pdf-processing">assets/config.json</read_resource>\n${prose.slice(0, 1000)}<execute_script skill="pdf-processing">scripts/extract.sh a.pdf</execute_script>`;
}

function measureParser() {
  const large = largeReply();
  const tags = Array.from({ length: 10_000 }, (_, index) => `<use_skill>skill-${index}</use_skill>`).join("\n");
  const check = (reply, count) => {
    const found = parseSkillInstructions(reply).instructions.length;
    if (found !== count) throw new Error(`text-protocol bench: expected ${count} instructions, parsed ${found}`);
  };
  check(SMALL_REPLY, 2);
  check(large, 3);
  check(tags, 10_000);
  return {
    small: timeEach(() => parseSkillInstructions(SMALL_REPLY), 20_000, 2_000),
    large: timeEach(() => parseSkillInstructions(large), 200, 20),
    tags: timeEach(() => parseSkillInstructions(tags), 200, 20),
  };
}

/** Microseconds of each of `runs` calls of `work`, after `warmup` calls. */
function timeEach(work, runs, warmup) {
  const samples = [];
  for (let index = -warmup; index < runs; index++) {
    const start = performance.now();
    work();
    const micros = (performance.now() - start) * 1000;
    if (index >= 0) samples.push(micros);
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// Runner

async function measureRunner() {
  const root = ensureLibrary(LIBRARY_SIZE);
  // About one generated skill in ten has a script and a reference.
  const skill = Array.from({ length: LIBRARY_SIZE }, (_, index) => `skill-${String(index).padStart(5, "0")}`).find(
    (name) => existsSync(join(root, name, "scripts")),
  );
  const executor = {
    specificationVersion: "v1",
    run: async () => ({
      exitCode: 0,
      stdout: "ok\n",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
      durationMs: 0,
    }),
  };
  let replies = [];
  let modelMs = 0;
  const complete = async () => {
    const start = performance.now();
    const reply = replies.shift();
    modelMs += performance.now() - start;
    return reply;
  };
  const runner = createSkillRunner({ sources: [createLocalSource({ path: root })], complete, executor });
  // A conversation in which the skill is loaded, for the steps that need it.
  replies = [`<use_skill>${skill}</use_skill>`, "Loaded."];
  const loaded = [...(await runner.run("Load it.")).messages, { role: "user", content: "Go on." }];

  const turn = (label, input, script) => ({
    label,
    run: async () => {
      replies = [...script];
      modelMs = 0;
      const start = performance.now();
      const result = await runner.run(input);
      const ms = performance.now() - start - modelMs;
      const failed = result.trace.steps.flatMap((step) => step.outcomes).find((outcome) => !outcome.ok);
      if (failed) throw new Error(`text-protocol bench: ${label} failed: ${failed.result.slice(0, 200)}`);
      return { ms, found: result.trace.steps.length };
    },
  });
  const results = await measureInterleaved(
    [
      turn("answer", "Hello", ["Hi."]),
      turn("load", "Go.", [`<use_skill>${skill}</use_skill>`, "Done."]),
      turn("read", loaded, [`<read_resource skill="${skill}">references/REFERENCE.md</read_resource>`, "Done."]),
      turn("script", loaded, [
        `<execute_script skill="${skill}">scripts/run.py --input data.csv</execute_script>`,
        "Done.",
      ]),
    ],
    { ...RUNS, gc: false },
  );
  runner.close();
  const micros = (label) => results.get(label).samples.map((ms) => ms * 1000);
  const answer = micros("answer");
  const base = quantile(answer, 0.5);
  const less = (samples) => samples.map((value) => value - base);
  return { answer, load: less(micros("load")), read: less(micros("read")), script: less(micros("script")) };
}

function formatMicros(micros) {
  return micros >= 1000 ? `${formatMs(micros / 1000)} ms` : formatMs(micros);
}
