import { randomUUID } from "node:crypto";
import type { ChatAgent } from "../chat/chat-agent.js";
import type { ChatModel } from "../chat/chat-model.js";
import { runTurn, type TokenUsage } from "../chat/run-turn.js";
import { describeTurnError } from "../chat/turn-error.js";
import { CliError } from "../cli-error.js";
import type { EvalCase } from "./eval-cases.js";
import { runPasses, type EvalRun } from "./eval-score.js";

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /** An agent over the skills, with a checkpointer, so a case's turns share a thread. */
  agent: ChatAgent;
  model: ChatModel;
  timeoutMs: number;
  /** Runs of each case. */
  repeat: number;
  /** Runs at once. */
  concurrency: number;
  /**
   * Ends a run as soon as this skill is loaded, before the model goes on with it: a trigger eval
   * knows its outcome then, and the rest of the run would only cost tokens and time.
   */
  stopWhenLoaded?: string;
  /** Called as each run ends, e.g. for progress. */
  onRun?(run: EvalRun, done: number, total: number): void;
}

/**
 * Runs every case `repeat` times through the real agent, each run in a thread of its own, and
 * records which skills it loaded (the middleware's `skill_loaded` and `skill_invoked` events)
 * and the tokens it used. Runs come back in case order, then run order. An error that would end
 * every run the same way (a refused API key) stops the eval with a {@link CliError}.
 */
export async function runEval(cases: readonly EvalCase[], options: RunEvalOptions): Promise<EvalRun[]> {
  const jobs = cases.flatMap((entry) =>
    Array.from({ length: options.repeat }, (_, index) => ({ entry, run: index + 1 })),
  );
  const results: EvalRun[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  let fatal: CliError | undefined;

  const worker = async () => {
    while (next < jobs.length && !fatal) {
      const index = next++;
      const { entry, run } = jobs[index]!;
      const result = await runCase(entry, run, options);
      if (result.fatal) {
        fatal ??= new CliError("provider", `Case ${entry.id}: ${result.run.error}`);
        return;
      }
      results[index] = result.run;
      options.onRun?.(result.run, ++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, jobs.length) }, worker));
  if (fatal) throw fatal;
  return results;
}

async function runCase(
  entry: EvalCase,
  run: number,
  options: RunEvalOptions,
): Promise<{ run: EvalRun; fatal: boolean }> {
  const threadId = `eval-${randomUUID()}`;
  const loaded: string[] = [];
  const usage: TokenUsage = { input: 0, output: 0 };
  let modelCalls = 0;
  let stepLimitReached = false;
  // Kept sorted, as `expected` is: parallel loads finish in any order.
  const record = (skill: unknown) => {
    if (typeof skill !== "string" || loaded.includes(skill)) return;
    loaded.push(skill);
    loaded.sort();
  };
  const stop = options.stopWhenLoaded === undefined ? undefined : new AbortController();
  for (const message of [entry.request, ...entry.turns]) {
    const handlers = {
      skillEvent: (event: { event: string; skill?: unknown }) => {
        if (event.event !== "skill_loaded" && event.event !== "skill_invoked") return;
        record(event.skill);
        if (event.skill === options.stopWhenLoaded) stop?.abort();
      },
    };
    const result = await runTurn(options.agent, threadId, message, handlers, stop ? { signal: stop.signal } : {});
    usage.input += result.usage.input;
    usage.output += result.usage.output;
    modelCalls += result.modelCalls;
    stepLimitReached ||= result.stepLimitReached;
    if (stop?.signal.aborted) break;
    if (result.status !== "answered") {
      const report = describeTurnError(result.error, options.model, options.timeoutMs);
      const failed: EvalRun = {
        case: entry,
        run,
        loaded,
        pass: false,
        usage,
        modelCalls,
        stepLimitReached,
        error: report.message,
      };
      return { run: failed, fatal: report.fatal };
    }
  }
  return {
    run: {
      case: entry,
      run,
      loaded,
      pass: runPasses(entry.expected, loaded, undefined),
      usage,
      modelCalls,
      stepLimitReached,
    },
    fatal: false,
  };
}
