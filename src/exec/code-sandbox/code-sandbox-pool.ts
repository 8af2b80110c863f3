import { SkillsetError } from "../../errors/skillset-error.js";
import { resolveCodeLimits, type CodeLimits } from "./code-limits.js";
import type { CodeRunHost, CodeRunOutcome } from "./code-run-outcome.js";
import { createCodeSandbox, type CodeSandbox } from "./code-sandbox.js";

/** How a pool makes and keeps its sandboxes. */
export interface CodeSandboxPoolOptions {
  /** Overrides of the default limits (64 MiB, 5 s, 256 tool calls, 20,000 characters), checked up front. */
  limits?: Partial<CodeLimits>;
  /**
   * Whether what a run leaves on the global object (`globalThis.total = 3`) is still there in the thread's
   * next run. The code is the body of an async function, so its `const`/`let`/`var` never outlive a run
   * either way. Even when kept, values are lost when the sandbox is rebuilt (after a timeout, the memory
   * limit, or a module that changed), which the outcome's notes then say. Modules are asked of the host
   * again on every run that imports them.
   * @default false — each run starts from a fresh global object, so one run cannot change what the next sees.
   */
  keepValues?: boolean;
  /**
   * Live sandboxes kept at most; past it the least recently used thread's sandbox is freed. Each holds about
   * 1.3 MiB when idle, but a WebAssembly heap never shrinks: one whose thread keeps values holds up to its
   * memory limit (values not kept, a heap past 32 MiB is replaced after the run).
   * @default 32
   */
  maxSandboxes?: number;
}

/** One sandbox per thread, made on first use, never shared between threads. */
export interface CodeSandboxPool {
  /** The limits every run gets (the defaults with the pool's overrides). */
  readonly limits: CodeLimits;
  /**
   * Runs the model's code in the thread's sandbox. Runs of one thread wait for each other; runs of different
   * threads proceed side by side. Resolves with the outcome; rejects only after `close()`.
   */
  run(threadId: string, code: string, host: CodeRunHost): Promise<CodeRunOutcome>;
  /** Frees a thread's sandbox (e.g. when the thread ends); its next run starts a new one. */
  release(threadId: string): void;
  /** Frees every sandbox; later runs are refused. */
  close(): void;
  /** Threads that have a live sandbox, least recently used first. */
  threads(): string[];
}

interface Entry {
  sandbox: Promise<CodeSandbox> | undefined;
  /** The thread's last queued run, so the next one starts after it. */
  queue: Promise<unknown>;
  running: number;
  /** Set by release() and close(): runs already queued still run, and the sandbox is freed after them. */
  released: boolean;
}

/**
 * A pool of QuickJS-NG WebAssembly sandboxes for the model's code, one per thread id. Each sandbox is its own
 * WebAssembly instance: no heap, global object or prototype is shared with another thread or with the host.
 * @throws SkillsetError `invalid-options` when a limit or `maxSandboxes` is out of range.
 */
export function createCodeSandboxPool(options: CodeSandboxPoolOptions = {}): CodeSandboxPool {
  const limits = resolveCodeLimits(options.limits);
  const keepValues = options.keepValues ?? false;
  const maxSandboxes = options.maxSandboxes ?? 32;
  if (!Number.isInteger(maxSandboxes) || maxSandboxes < 1) {
    throw new SkillsetError("invalid-options", `maxSandboxes must be a positive integer; got ${String(maxSandboxes)}.`);
  }
  const entries = new Map<string, Entry>();
  let closed = false;

  const free = (entry: Entry) => {
    entry.released = true;
    void entry.queue
      .then(() => entry.sandbox?.then((sandbox) => sandbox.dispose()))
      .catch(() => undefined)
      .finally(() => (entry.sandbox = undefined));
  };

  const evictBeyondLimit = () => {
    for (const [threadId, entry] of entries) {
      if (entries.size <= maxSandboxes) return;
      if (entry.running > 0) continue;
      entries.delete(threadId);
      free(entry);
    }
  };

  const runInEntry = async (entry: Entry, code: string, host: CodeRunHost): Promise<CodeRunOutcome> => {
    if (closed) throw new SkillsetError("sandbox-closed", "This code sandbox pool was closed.");
    let sandbox = await entry.sandbox?.catch(() => undefined);
    if (sandbox === undefined || !sandbox.usable) {
      sandbox?.dispose();
      entry.sandbox = createCodeSandbox({ limits, keepValues });
      sandbox = await entry.sandbox;
    }
    return sandbox.run(code, host);
  };

  return {
    limits,
    run(threadId, code, host) {
      if (closed) return Promise.reject(new SkillsetError("sandbox-closed", "This code sandbox pool was closed."));
      const entry = entries.get(threadId) ?? {
        sandbox: undefined,
        queue: Promise.resolve(),
        running: 0,
        released: false,
      };
      entries.delete(threadId);
      entries.set(threadId, entry);
      entry.running += 1;
      const result = entry.queue.then(() => runInEntry(entry, code, host));
      entry.queue = result.catch(() => undefined).finally(() => (entry.running -= 1));
      evictBeyondLimit();
      return result;
    },
    release(threadId) {
      const entry = entries.get(threadId);
      if (!entry) return;
      entries.delete(threadId);
      free(entry);
    },
    close() {
      closed = true;
      for (const entry of entries.values()) free(entry);
      entries.clear();
    },
    threads: () => [...entries.keys()],
  };
}
