import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { CodeLimits } from "./code-limits.js";
import type { ActiveRun } from "./execute-run.js";
import { loadModuleGraph } from "./module-graph.js";
import { HOST_FUNCTIONS, sandboxPrelude } from "./sandbox-prelude.js";

/** A context with the prelude run and the host functions it takes: log, tool call and module preload. */
export function newSandboxContext(
  runtime: QuickJSRuntime,
  current: () => ActiveRun | undefined,
  limits: CodeLimits,
): QuickJSContext {
  const context = runtime.newContext();
  const define = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
    const handle = context.newFunction(name, fn);
    context.setProp(context.global, name, handle);
    handle.dispose();
  };
  define(HOST_FUNCTIONS.log, (text, length) => {
    const run = current();
    if (run && text && length) recordLog(run, context.getString(text), context.getNumber(length), limits);
    return undefined;
  });
  define(HOST_FUNCTIONS.callTool, (name, json) => {
    const run = current();
    if (!run || !name || !json) throw new Error("Tools can only be called while the code runs.");
    return callTool(context, run, context.getString(name), context.getString(json), limits);
  });
  define(HOST_FUNCTIONS.preload, (importer, specifier) => {
    const run = current();
    if (!run || !importer || !specifier) throw new Error("Modules can only be imported while the code runs.");
    // Argument handles live only during this call: read them before going asynchronous.
    const base = context.getString(importer);
    const asked = context.getString(specifier);
    return settleLater(context, run, async () => {
      const graph = await loadModuleGraph(run.host, run.approved, run.approved.sources.has(base) ? base : undefined, [
        asked,
      ]);
      if ("error" in graph) throw Object.assign(new Error(graph.error), { name: "ImportError" });
      return graph.resolved[0];
    });
  });
  const prelude = context.evalCode(sandboxPrelude(limits.maxResultChars), "<prelude>", { type: "global" });
  if (prelude.error) {
    const problem = context.dump(prelude.error);
    prelude.error.dispose();
    context.dispose();
    throw new Error(`The code sandbox's prelude failed: ${JSON.stringify(problem)}`);
  }
  prelude.value.dispose();
  return context;
}

function recordLog(run: ActiveRun, text: string, length: number, limits: CodeLimits): void {
  const room = limits.maxResultChars - run.logChars;
  if (room <= 0) {
    run.logsCutChars += length;
  } else if (length > room) {
    run.logs.push(text.slice(0, room));
    run.logChars = limits.maxResultChars;
    run.logsCutChars += length - room;
  } else {
    run.logs.push(text);
    run.logChars += length;
  }
}

function callTool(
  context: QuickJSContext,
  run: ActiveRun,
  name: string,
  json: string,
  limits: CodeLimits,
): QuickJSHandle {
  run.toolCalls += 1;
  if (run.toolCalls > limits.maxToolCalls) {
    run.stop ??= "tool-calls";
    throw new Error(`Too many tool calls: the limit is ${limits.maxToolCalls} per run.`);
  }
  const tool = Object.hasOwn(run.host.tools, name) ? run.host.tools[name] : undefined;
  if (typeof tool !== "function") {
    throw new TypeError(
      `tools.${name} is not a tool you can call here. Available tools: ${Object.keys(run.host.tools).join(", ") || "none"}.`,
    );
  }
  return settleLater(context, run, async () => {
    const result = await tool(JSON.parse(json, withoutProtoKeys));
    return result === undefined ? undefined : JSON.stringify(result);
  });
}

/**
 * A sandbox promise settled by host work: fulfilled with the JSON text (or undefined) the work returns,
 * rejected with its error's message. Results arriving after the run ended are dropped.
 */
function settleLater(context: QuickJSContext, run: ActiveRun, work: () => Promise<string | undefined>): QuickJSHandle {
  const deferred: QuickJSDeferredPromise = context.newPromise();
  run.pending.add(deferred);
  const settle = (apply: () => void) => {
    if (!run.pending.delete(deferred) || !deferred.alive || run.ended) return;
    apply();
    deferred.dispose();
    run.wake();
  };
  Promise.resolve()
    .then(work)
    .then(
      (text) =>
        settle(() => {
          if (text === undefined) return deferred.resolve(context.undefined);
          context.newString(text).consume((handle) => deferred.resolve(handle));
        }),
      (error: unknown) =>
        settle(() => {
          const name = error instanceof Error && error.name === "ImportError" ? "ImportError" : "Error";
          const message = error instanceof Error ? error.message : String(error);
          context.newError({ name, message }).consume((handle) => deferred.reject(handle));
        }),
    );
  return deferred.handle.dup();
}

// A "__proto__" key in the code's JSON would become a prototype wherever a tool merges its arguments.
function withoutProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}
