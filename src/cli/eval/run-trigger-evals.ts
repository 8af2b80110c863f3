import type { EvalCase } from "./eval-cases.js";
import { runEval, type RunEvalOptions } from "./run-eval.js";
import type { TriggerQuery } from "./trigger-evals.js";
import type { TriggerRun } from "./trigger-score.js";

/**
 * Runs every query `options.repeat` times through the agent, each run a one-message thread of
 * its own, and records whether it loaded `skill` (by the model, or by a `/name` in the query);
 * other skills it loaded do not matter. A run ends as soon as it loads `skill` (agentskills.io's
 * advice: the outcome is known, the rest is cost). Runs come back in query order, then run order.
 */
export async function runTriggerQueries(
  skill: string,
  queries: readonly TriggerQuery[],
  options: RunEvalOptions,
): Promise<TriggerRun[]> {
  const cases = queries.map((entry, index): EvalCase => ({
    id: `query ${index + 1}`,
    request: entry.query,
    expected: entry.shouldTrigger ? [skill] : [],
    turns: [],
    draft: false,
  }));
  const runs = await runEval(cases, { ...options, stopWhenLoaded: skill });
  return runs.map((run) => ({
    index: cases.indexOf(run.case),
    triggered: run.loaded.includes(skill),
    usage: run.usage,
    ...(run.error === undefined ? {} : { error: run.error }),
  }));
}
