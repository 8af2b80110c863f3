import syncVariant from "@jitl/quickjs-ng-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext } from "quickjs-emscripten-core";
import type { CodeLimits } from "./code-limits.js";
import type { CodeRunHost, CodeRunOutcome } from "./code-run-outcome.js";
import { resolveModuleSpecifier } from "./module-specifier.js";
import { executeRun, type ActiveRun } from "./execute-run.js";
import { newSandboxContext } from "./sandbox-context.js";
import { approvedName } from "./module-graph.js";

// The package's types describe its CommonJS build; under ESM its default export is the variant itself.
const variant = syncVariant as unknown as Parameters<typeof newQuickJSWASMModuleFromVariant>[0];

// The heap a WebAssembly instance starts with is 16 MiB; one grown past twice that is replaced.
const SHRINK_ABOVE_BYTES = 32 * 1024 * 1024;

// The engine's own stack limit. WebAssembly frames run on Node's native stack: at 256 KiB the engine's
// C recursion over deep data (JSON.stringify, JSON.parse, Array#join) overflowed that stack first, which
// leaves the instance unusable; at 64 KiB it is a RangeError inside the sandbox (about 400 nested JS calls).
const MAX_STACK_BYTES = 64 * 1024;

/** One thread's sandbox: its own WebAssembly instance (own heap), runtime and JavaScript context. */
export interface CodeSandbox {
  /** Runs the model's code; resolves to its outcome (never rejects for anything the code does). */
  run(code: string, host: CodeRunHost): Promise<CodeRunOutcome>;
  /**
   * False once the sandbox must not run again: its engine failed, its memory limit was hit, or (values not
   * kept) its heap grew past 32 MiB, which a WebAssembly instance never gives back.
   */
  readonly usable: boolean;
  /** Frees the engine; further runs are refused. */
  dispose(): void;
}

/** What a sandbox is made with. */
export interface CodeSandboxOptions {
  limits: CodeLimits;
  /** Whether the global object (and what code stores on it) carries over from one run to the next. */
  keepValues: boolean;
}

/**
 * A new sandbox: a fresh QuickJS-NG WebAssembly instance (so no heap is shared with another thread's
 * sandbox), with the memory limit, stack limit, interrupt handler and module loader set. The loader
 * only hands the engine modules the host approved for the current run (see `loadModuleGraph`).
 */
export async function createCodeSandbox(options: CodeSandboxOptions): Promise<CodeSandbox> {
  const wasm = await newQuickJSWASMModuleFromVariant(variant);
  const runtime = wasm.newRuntime();
  runtime.setMemoryLimit(options.limits.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  let active: ActiveRun | undefined;
  let context: QuickJSContext | undefined;
  let contextModules = new Map<string, string>();
  let usable = true;

  runtime.setInterruptHandler(
    () => active !== undefined && (Date.now() > active.deadline || active.stop !== undefined),
  );
  runtime.setModuleLoader(
    (name) => {
      const source = name.startsWith(REFUSED) ? undefined : active?.approved.sources.get(name);
      return source ?? { error: new Error(`Cannot import "${name.replace(REFUSED, "")}": ${NOT_APPROVED}`) };
    },
    // Asked for every import, cached modules included: a module the host did not approve for this run
    // (an unloaded skill's, or one reached through eval) gets a name no module has, which the loader refuses.
    (base, name) => {
      const approved = active?.approved;
      const resolved = resolveModuleSpecifier(approved?.sources.has(base) ? base : undefined, name);
      return (approved && approvedName(approved, resolved)) ?? REFUSED + resolved;
    },
  );

  const dropContext = () => {
    if (context?.alive) context.dispose();
    context = undefined;
    contextModules = new Map();
  };

  const run = async (code: string, host: CodeRunHost): Promise<CodeRunOutcome> => {
    if (!usable) throw new Error("This code sandbox was disposed.");
    const run: ActiveRun = newActiveRun(host, options.limits);
    active = run;
    try {
      const outcome = await executeRun(run, code, {
        runtime,
        limits: options.limits,
        context: () => {
          // A module changed since this context imported it: the engine would keep serving the old one.
          const changed = [...run.approved.sources].find(
            ([name, source]) => contextModules.has(name) && contextModules.get(name) !== source,
          );
          if (changed) {
            run.notes.push(
              `Module "${changed[0]}" changed since an earlier run; the sandbox was reset and values kept from earlier runs are gone.`,
            );
            dropContext();
          }
          context ??= newSandboxContext(runtime, () => active, options.limits);
          for (const entry of run.approved.sources) contextModules.set(...entry);
          return context;
        },
      });
      const stopped = run.stop !== undefined || (!outcome.ok && outcome.error.kind === "timeout");
      if (run.broken) {
        usable = false;
      } else if (!options.keepValues) {
        dropContext();
        // A WebAssembly heap never shrinks: after a run that used much memory, start over (nothing is kept).
        if (wasm.getWasmMemory().buffer.byteLength > SHRINK_ABOVE_BYTES) usable = false;
      } else if (stopped) {
        // Code stopped mid-way may have left half-updated values and jobs that would run in the next run.
        dropContext();
        run.notes.push("The sandbox was reset after the code was stopped; values kept from earlier runs are gone.");
      }
      return outcome;
    } catch (error) {
      usable = false;
      throw error;
    } finally {
      active = undefined;
    }
  };

  return {
    run,
    get usable() {
      return usable;
    },
    dispose() {
      if (!usable && !runtime.alive) return;
      usable = false;
      try {
        dropContext();
        runtime.dispose();
      } catch {
        // A runtime left mid-run (timeout, memory) may refuse to free cleanly; its WebAssembly instance
        // is dropped with it, which frees the memory either way.
      }
    },
  };
}

// Names cross into C as NUL-terminated strings, so the marker is a control character other than NUL.
const REFUSED = "\u0001refused:";
const NOT_APPROVED =
  "only modules named directly in an import statement or import() call can be imported (not through eval or Function).";

function newActiveRun(host: CodeRunHost, limits: CodeLimits): ActiveRun {
  return {
    host,
    deadline: Date.now() + limits.timeoutMs,
    approved: { sources: new Map(), aliases: new Map() },
    pending: new Set(),
    logs: [],
    logChars: 0,
    logsCutChars: 0,
    toolCalls: 0,
    notes: [],
    stop: undefined,
    broken: false,
    wake: () => {},
  };
}
