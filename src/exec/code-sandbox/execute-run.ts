import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { CodeLimits } from "./code-limits.js";
import type { CodeRunErrorKind, CodeRunHost, CodeRunOutcome } from "./code-run-outcome.js";
import { prepareRunCode, RUN_CODE_FILE, RUN_CODE_PREFIX } from "./code-source.js";
import { loadModuleGraph, type ApprovedModules } from "./module-graph.js";
import { SET_TOOLS_FUNCTION, TO_JSON_FUNCTION } from "./sandbox-prelude.js";

/** The state of the run a sandbox is executing, shared with its host functions. */
export interface ActiveRun {
  host: CodeRunHost;
  /** Date.now() past which the interrupt handler stops the code. */
  deadline: number;
  /** Modules (specifier → prepared source) the host gave for this run: the only ones the engine may load. */
  approved: ApprovedModules;
  /** Sandbox promises waiting on host work (tool calls, imports). */
  pending: Set<QuickJSDeferredPromise>;
  logs: string[];
  logChars: number;
  logsCutChars: number;
  toolCalls: number;
  notes: string[];
  /** Set when a limit other than time ends the run; the interrupt handler then stops the code. */
  stop: "tool-calls" | undefined;
  /** Set when the engine must not be used again (memory limit hit, or the engine itself failed). */
  broken: boolean;
  ended?: boolean;
  /** Called when host work settles, so the run loop drains the engine's jobs. */
  wake: () => void;
}

interface RunDependencies {
  runtime: QuickJSRuntime;
  limits: CodeLimits;
  /** The context to run in (new, or kept from the last run), made after the run's modules are approved. */
  context: () => QuickJSContext;
}

// Enough frames to find the line; deep recursion would otherwise fill the model's context with one frame.
const MAX_STACK_FRAMES = 6;

type Failure = { kind: CodeRunErrorKind; message: string };

/** Runs the model's code in the sandbox until it settles, fails, or passes a limit. */
export async function executeRun(run: ActiveRun, code: string, deps: RunDependencies): Promise<CodeRunOutcome> {
  try {
    const result = await settle(run, code, deps);
    if (run.stop === "tool-calls") return failed(run, { kind: "tool-calls", message: "" });
    return "kind" in result ? failed(run, result) : result;
  } catch (error) {
    run.broken = true;
    run.notes.push("The sandbox was rebuilt; values kept from earlier runs are gone.");
    return failed(run, { kind: "crashed", message: error instanceof Error ? error.message : String(error) });
  } finally {
    run.ended = true;
    // Host work still running (a tool call the code did not await) settles into nothing.
    for (const deferred of run.pending) if (deferred.alive) deferred.dispose();
    run.pending.clear();
  }
}

async function settle(run: ActiveRun, code: string, deps: RunDependencies): Promise<CodeRunOutcome | Failure> {
  const prepared = prepareRunCode(code);
  if ("error" in prepared) return { kind: "syntax", message: prepared.error };
  const graph = await beforeDeadline(run, loadModuleGraph(run.host, run.approved, undefined, prepared.imports));
  if (graph === "timeout") return { kind: "timeout", message: "" };
  if ("error" in graph) return { kind: "import", message: graph.error };
  const context = deps.context();
  const toolNames = context.newString(JSON.stringify(Object.keys(run.host.tools)));
  const setTools = context.getProp(context.global, SET_TOOLS_FUNCTION);
  const toolsSet = context.callFunction(setTools, context.undefined, toolNames);
  setTools.dispose();
  toolNames.dispose();
  if (toolsSet.error) return classify(run, context, toolsSet.error, "thrown");
  toolsSet.value.dispose();
  const evaluated = context.evalCode(prepared.source, RUN_CODE_FILE, { type: "module" });
  if (evaluated.error) return classify(run, context, evaluated.error, "import");
  const done = await awaitValue(run, context, deps.runtime, evaluated.value);
  if ("kind" in done) return done;
  if ("error" in done) return classify(run, context, done.error, "thrown");
  return toValue(run, context, done.value);
}

/** Drives the engine's jobs until the module's default export (the code's promise) settles. */
async function awaitValue(
  run: ActiveRun,
  context: QuickJSContext,
  runtime: QuickJSRuntime,
  moduleResult: QuickJSHandle,
): Promise<Failure | { value: QuickJSHandle } | { error: QuickJSHandle }> {
  // Module evaluation gives a promise (of the namespace) when the module or an import awaits at top level.
  let handle = moduleResult;
  let stage: "module" | "body" = "module";
  for (;;) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return classify(run, context, jobs.error, "thrown", () => handle.dispose());
    if (Date.now() > run.deadline) {
      handle.dispose();
      return { kind: "timeout", message: "" };
    }
    if (run.stop !== undefined) {
      handle.dispose();
      return { kind: run.stop, message: "" };
    }
    const state = context.getPromiseState(handle);
    if (state.type === "rejected") {
      handle.dispose();
      return stage === "module" ? classify(run, context, state.error, "import") : { error: state.error };
    }
    if (state.type === "fulfilled") {
      // For a value that is not a promise the state's value is the handle itself.
      const value = state.value;
      if (!state.notAPromise) handle.dispose();
      if (stage === "body") return { value };
      handle = value.consume((namespace) => context.getProp(namespace, "default"));
      stage = "body";
      continue;
    }
    if (run.pending.size === 0 && !runtime.hasPendingJob()) {
      handle.dispose();
      return {
        kind: "stalled",
        message: "the code awaits a promise that nothing will ever settle (no tool call or import is still running).",
      };
    }
    if (!runtime.hasPendingJob()) {
      const woken = await beforeDeadline(run, new Promise<void>((resolve) => (run.wake = resolve)));
      if (woken === "timeout") continue;
    }
  }
}

/** The code's value as JSON text (cut to the result size) and, when whole, a parsed copy. */
function toValue(run: ActiveRun, context: QuickJSContext, value: QuickJSHandle): CodeRunOutcome | Failure {
  const toJson = context.getProp(context.global, TO_JSON_FUNCTION);
  const result = context.callFunction(toJson, context.undefined, value);
  toJson.dispose();
  value.dispose();
  if (result.error) {
    const failure = classify(run, context, result.error, "result");
    return failure.kind === "result"
      ? { kind: "result", message: `the returned value cannot be written as JSON (${failure.message}).` }
      : failure;
  }
  const text = result.value.consume((handle) =>
    context.typeof(handle) === "string" ? context.getString(handle) : undefined,
  );
  const report = { logs: run.logs, logsCutChars: run.logsCutChars, toolCalls: run.toolCalls, notes: run.notes };
  if (text === undefined) return { ok: true, value: undefined, json: undefined, jsonChars: 0, ...report };
  const colon = text.indexOf(":");
  const jsonChars = Number(text.slice(0, colon));
  const json = text.slice(colon + 1);
  const whole = json.length === jsonChars;
  try {
    return { ok: true, value: whole ? JSON.parse(json) : undefined, json, jsonChars, ...report };
  } catch {
    return { kind: "result", message: "the returned value's JSON text could not be read back." };
  }
}

/** The failure an error handle from the engine stands for (and disposes it). */
function classify(
  run: ActiveRun,
  context: QuickJSContext,
  error: QuickJSHandle,
  otherwise: CodeRunErrorKind,
  cleanup?: () => void,
): Failure {
  cleanup?.();
  const dumped: unknown = error.consume((handle) => context.dump(handle));
  const { name, message, stack } = describe(dumped);
  if (name === "InternalError" && message === "interrupted") {
    return { kind: run.stop ?? "timeout", message: "" };
  }
  if (/out of memory/i.test(message)) {
    run.broken = true;
    run.notes.push("The sandbox was rebuilt after reaching its memory limit; values kept from earlier runs are gone.");
    return { kind: "memory", message: "" };
  }
  if (name === "ImportError") return { kind: "import", message };
  if (name === "SyntaxError" && otherwise === "import" && stack.includes(RUN_CODE_FILE)) {
    return { kind: "syntax", message: `${name}: ${message}` };
  }
  const text = name ? `${name}: ${message}` : message;
  const kind =
    otherwise === "import" && !stack.includes(RUN_CODE_FILE) ? "import" : otherwise === "import" ? "thrown" : otherwise;
  return { kind, message: stack ? `${text}\n${stack}` : text };
}

function describe(dumped: unknown): { name: string; message: string; stack: string } {
  if (typeof dumped === "object" && dumped !== null && "message" in dumped) {
    const fields = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const stack = typeof fields.stack === "string" ? fields.stack : "";
    return {
      name: typeof fields.name === "string" ? fields.name : "",
      message: String(fields.message),
      // The code's first line starts after the wrapper; columns on it are given as the model wrote them.
      stack: stack
        .replace(
          new RegExp(`${RUN_CODE_FILE.replace(".", "\\.")}:1:(\\d+)`, "g"),
          (_m, column: string) => `${RUN_CODE_FILE}:1:${Math.max(1, Number(column) - RUN_CODE_PREFIX.length + 1)}`,
        )
        .trimEnd()
        .split("\n")
        .slice(0, MAX_STACK_FRAMES)
        .join("\n"),
    };
  }
  let message: string;
  try {
    message = `a value that is not an Error was thrown: ${JSON.stringify(dumped) ?? String(dumped)}`;
  } catch {
    message = "a value that is not an Error was thrown.";
  }
  return { name: "", message, stack: "" };
}

function failed(run: ActiveRun, failure: Failure): CodeRunOutcome {
  return {
    ok: false,
    error: failure,
    logs: run.logs,
    logsCutChars: run.logsCutChars,
    toolCalls: run.toolCalls,
    notes: run.notes,
  };
}

/** The promise's value, or "timeout" once the run's deadline passes first. */
async function beforeDeadline<T>(run: ActiveRun, promise: Promise<T>): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, run.deadline - Date.now() + 1));
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
