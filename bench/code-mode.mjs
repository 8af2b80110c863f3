// Table "Code mode": a task that needs one tool call per record over 200 records, through the real
// createAgent loop with a scripted fake model (model time is nil), done three ways: one tool call
// per model call (a model that reads each result before the next), all 200 calls in one model
// message (parallel tool calls), and one run_code call whose code imports the skill's module and
// makes the 200 calls. Counted: model calls, the tokens (o200k_base, the project's counter) the
// model reads over the whole task (each call's whole input: system prompt and messages, tool
// call arguments included) and the tokens the records add to the conversation, and wall time.
// Then the sandbox's own costs: start-up of a thread's sandbox and the overhead of a run.
import { EventEmitter, setMaxListeners } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fakeModel } from "@langchain/core/testing";
import { AIMessage, createAgent, tool } from "langchain";
import { z } from "zod";
import { countTokens } from "../dist/index.js";
import { createSkillEngine } from "../dist/host.js";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { createCodeSandboxPool } from "../dist/node.js";
import { formatMs, summarize } from "./stats.mjs";

const RECORDS = 200;
const SANDBOX_RUNS = 30;

const MODULE = `/** One invoice as get_invoice returns it. */
export interface Invoice { id: string; customer: string; amount: number; dueDate: string; paid: boolean; notes: string }

/** The unpaid invoices due before \`today\`, and what they owe in all. */
export function overdueSummary(invoices: Invoice[], today: string): { count: number; due: number } {
  const overdue = invoices.filter((invoice) => !invoice.paid && invoice.dueDate < today);
  return { count: overdue.length, due: overdue.reduce((sum, invoice) => sum + invoice.amount, 0) };
}
`;

const CODE = `import { overdueSummary } from "@/skills/invoices";
const invoices = [];
for (let id = 1; id <= ${RECORDS}; id++) invoices.push(await tools.getInvoice({ id: String(id) }));
return overdueSummary(invoices, "2026-11-01");`;

/** One invoice, as a billing API would return it (about 60 tokens). */
function invoice(id) {
  const n = Number(id);
  return {
    id,
    customer: `Customer ${(n * 7919) % 1000} Ltd`,
    amount: 50 + ((n * 37) % 950),
    dueDate: `2026-${String(1 + (n % 12)).padStart(2, "0")}-${String(1 + (n % 28)).padStart(2, "0")}`,
    paid: n % 3 === 0,
    notes: `Invoice ${id} for services rendered; terms net 30; contact billing@example.com.`,
  };
}

/**
 * The Code mode table with its notes, as run.mjs prints it: `{ title, rows, notes }`.
 * Rows: the three ways of doing the task, then the sandbox's start-up and per-run overhead.
 */
export async function codeModeTable() {
  const root = mkdtempSync(join(tmpdir(), "skillset-bench-code-"));
  try {
    mkdirSync(join(root, "invoices"));
    writeFileSync(
      join(root, "invoices", "SKILL.md"),
      "---\nname: invoices\ndescription: Totals invoices and finds overdue ones.\nmetadata:\n  entrypoint: invoices.ts\n---\n\nUse the module in run_code; fetch invoices with tools.getInvoice({ id }).\n",
    );
    writeFileSync(join(root, "invoices", "invoices.ts"), MODULE);
    const ids = Array.from({ length: RECORDS }, (_, index) => String(index + 1));
    const call = (id) => ({ name: "get_invoice", args: { id }, id: `get-${id}` });
    const load = [{ name: "load_skill", args: { skill_name: "invoices" }, id: "load" }];
    const ways = [
      ["one tool call per model call", [load, ...ids.map((id) => [call(id)])]],
      [`${RECORDS} parallel tool calls in one model call`, [load, ids.map(call)]],
      ["one run_code call", [load, [{ name: "run_code", args: { code: CODE }, id: "code" }]]],
    ];
    // The sandbox first, so its first start-up is the process's first (the WebAssembly module compiled).
    const sandbox = await sandboxCosts(root);
    const rows = [];
    for (const [way, steps] of ways) rows.push(await runTask(root, way, steps));
    return {
      title: "Code mode",
      rows: [...rows, ...sandbox.rows],
      notes: [
        "",
        `A scripted model (LangChain's fakeModel, no model time) does one task through createAgent with the skills middleware: load the \`invoices\` skill, fetch ${RECORDS} invoices with \`get_invoice\` (about 60 tokens each), answer. "Tokens the model reads" sums every model call's whole input (system prompt, messages, tool call arguments), as a provider bills input tokens without a prompt cache; "record tokens in the conversation" is what the tool results and calls add to the messages. With run_code the records stay in the sandbox and only \`{"count":…,"due":…}\` comes back. Wall time is one invoke: the agent loop, the tools and, for run_code, the sandbox (start-up, the module, ${RECORDS} tool calls through LangChain's tool invocation); with a real model each model call adds its latency, so at 1 s a call the first way takes over 200 s more and the others 3 s more.`,
        `Sandbox rows: start-up is a new thread's first run of \`return 1\` (a fresh QuickJS-NG WebAssembly instance; the first in the process also compiles the module), and a run's overhead is the median of ${SANDBOX_RUNS} runs of \`return 1\` in a warm thread, through engine.runCode (catalog, loaded skills, tools table, formatting). ${sandbox.perToolCall}`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function runTask(root, way, steps) {
  // Whole AI messages: respondWithTools echoes the conversation into each reply's text, which
  // doubles at every step of a 200-step task.
  let model = fakeModel();
  for (const step of steps)
    model = model.respond(
      new AIMessage({ content: "", tool_calls: step.map((entry) => ({ ...entry, type: "tool_call" })) }),
    );
  model = model.respond(new AIMessage("23 invoices are overdue."));
  const getInvoice = tool(async ({ id }) => invoice(id), {
    name: "get_invoice",
    description: "One invoice by its id.",
    schema: z.object({ id: z.string() }),
  });
  const middleware = createSkillsMiddleware({ sources: [root], codeMode: { tools: ["get_invoice"] } });
  const agent = createAgent({ model, tools: [getInvoice], middleware: [middleware] });
  // LangChain adds an abort listener per parallel tool call; allow the 200 of one step.
  const previousMax = EventEmitter.defaultMaxListeners;
  setMaxListeners(RECORDS + 10);
  const started = performance.now();
  const result = await agent.invoke(
    { messages: [{ role: "user", content: "How many invoices are overdue, and how much do they owe?" }] },
    { configurable: { thread_id: `bench-${way}` }, recursionLimit: 1000 },
  );
  const wall = performance.now() - started;
  setMaxListeners(previousMax);
  const counter = createMessageCounter();
  let read = 0;
  for (const input of model.calls) for (const message of input.messages) read += await counter(message);
  let records = 0;
  for (const message of result.messages)
    if (message.type === "tool" && message.name !== "load_skill") records += await counter(message);
    else if (message.type === "ai")
      for (const toolCall of message.tool_calls ?? []) records += await countTokens(JSON.stringify(toolCall.args));
  return {
    way,
    "model calls": String(model.calls.length),
    "tokens the model reads": read.toLocaleString("en-US"),
    "record tokens in the conversation": records.toLocaleString("en-US"),
    "wall time (ms)": formatMs(wall),
  };
}

// Tokens of one message as the model reads it: its text and its tool calls' arguments, counted once per message.
function createMessageCounter() {
  const counted = new WeakMap();
  return async (message) => {
    const known = counted.get(message);
    if (known !== undefined) return known;
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    const calls = (message.tool_calls ?? []).map((entry) => `${entry.name}${JSON.stringify(entry.args)}`).join("");
    const tokens = await countTokens(text + calls);
    counted.set(message, tokens);
    return tokens;
  };
}

async function sandboxCosts(root) {
  const { createLocalSource } = await import("../dist/node.js");
  const { createCatalog } = await import("../dist/index.js");
  const catalog = createCatalog([createLocalSource({ path: root, watch: false })]);
  const pool = createCodeSandboxPool();
  const engine = createSkillEngine({ codeMode: { pool, tools: ["get_invoice"] } });
  try {
    const refreshed = await engine.refresh(catalog, { loaded: [] });
    const request = (thread) => ({
      state: { skills: refreshed.skills, catalogVersion: refreshed.version, loaded: ["invoices"], resources: {} },
      sources: async () => catalog.sources,
      sessionId: thread,
    });
    const tools = { get_invoice: async ({ id }) => invoice(id) };
    const startups = [];
    for (let run = 0; run < 10; run++) {
      const started = performance.now();
      await engine.runCode(request(`startup-${run}`), { code: "return 1" }, tools);
      startups.push(performance.now() - started);
      pool.release(`startup-${run}`);
    }
    const warm = [];
    for (let run = 0; run < SANDBOX_RUNS; run++) {
      const started = performance.now();
      await engine.runCode(request("warm"), { code: "return 1" }, tools);
      warm.push(performance.now() - started);
    }
    const withCalls = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const reply = await engine.runCode(request("warm"), { code: CODE }, tools);
      if (!reply.ok) throw new Error(`the bench's code failed: ${reply.text}`);
      withCalls.push(performance.now() - started);
    }
    const perCall = (summarize(withCalls).median - summarize(warm).median) / RECORDS;
    const row = (way, samples) => ({
      way,
      "model calls": "n/a",
      "tokens the model reads": "n/a",
      "record tokens in the conversation": "n/a",
      "wall time (ms)": formatMs(summarize(samples).median),
    });
    return {
      rows: [
        row("sandbox start-up: a new thread's first run (median of 10)", startups),
        row("overhead of one run in a warm thread", warm),
      ],
      perToolCall: `The ${RECORDS}-call run above, through the engine alone (module imported, ${RECORDS} tool calls that answer at once), takes ${formatMs(summarize(withCalls).median)} ms (median of 5): about ${formatMs(perCall)} ms per tool call crossing the sandbox boundary. The process's first start-up, which also compiles the WebAssembly module, took ${formatMs(startups[0])} ms.`,
    };
  } finally {
    pool.close();
    catalog.close();
  }
}
