import type { TokenUsage } from "../chat/run-turn.js";
import type { TriggerQuery } from "./trigger-evals.js";

/**
 * A query passes when its trigger rate is above this (should trigger) or below it (should not),
 * agentskills.io's default. With an even number of runs a rate of exactly one half fails either way.
 */
export const TRIGGER_THRESHOLD = 0.5;

/** How often one query loaded the skill over its runs. */
export interface TriggerResult {
  query: string;
  shouldTrigger: boolean;
  /** Runs that loaded the skill. */
  triggers: number;
  /** Runs that ended without an error; the rate is over these. */
  runs: number;
  /** `triggers / runs`, rounded to 4 places; `null` when every run ended in an error. */
  triggerRate: number | null;
  pass: boolean;
  /** Runs that ended in an error. */
  errors: number;
}

/** Passed queries of one kind. */
export interface PassCount {
  passed: number;
  total: number;
  /** `passed / total`, rounded to 4 places; 1 when there are none. */
  passRate: number;
}

/** A skill's trigger eval: each query, and the pass rates of should-trigger queries and near misses apart. */
export interface SkillTriggerReport {
  skill: string;
  /** The eval file. */
  file: string;
  results: TriggerResult[];
  shouldTrigger: PassCount;
  /** Queries that should not load the skill. */
  nearMiss: PassCount;
  all: PassCount;
  usage: TokenUsage;
}

/** One run of one query: whether the skill was loaded, or the error that ended it. */
export interface TriggerRun {
  /** Index of the query in its list. */
  index: number;
  triggered: boolean;
  error?: string;
  usage: TokenUsage;
}

/** Scores every query over its runs (errors left out of the rate), and the skill's pass rates. */
export function scoreTriggers(
  skill: string,
  file: string,
  queries: readonly TriggerQuery[],
  runs: readonly TriggerRun[],
): SkillTriggerReport {
  const results = queries.map((entry, index): TriggerResult => {
    const mine = runs.filter((run) => run.index === index);
    const completed = mine.filter((run) => run.error === undefined);
    const triggers = completed.filter((run) => run.triggered).length;
    const triggerRate = completed.length === 0 ? null : round(triggers / completed.length);
    const pass =
      triggerRate !== null && (entry.shouldTrigger ? triggerRate > TRIGGER_THRESHOLD : triggerRate < TRIGGER_THRESHOLD);
    return {
      query: entry.query,
      shouldTrigger: entry.shouldTrigger,
      triggers,
      runs: completed.length,
      triggerRate,
      pass,
      errors: mine.length - completed.length,
    };
  });
  const usage = { input: 0, output: 0 };
  for (const run of runs) {
    usage.input += run.usage.input;
    usage.output += run.usage.output;
  }
  return {
    skill,
    file,
    results,
    shouldTrigger: passCount(results.filter((result) => result.shouldTrigger)),
    nearMiss: passCount(results.filter((result) => !result.shouldTrigger)),
    all: passCount(results),
    usage,
  };
}

/** How many of `results` passed. */
export function passCount(results: readonly Pick<TriggerResult, "pass">[]): PassCount {
  const passed = results.filter((result) => result.pass).length;
  return { passed, total: results.length, passRate: results.length === 0 ? 1 : round(passed / results.length) };
}

// A share rounded to 4 places, so JSON carries 0.6667 rather than 0.6666666666666666.
function round(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}
