import type { TokenUsage } from "../chat/run-turn.js";
import type { EvalCase } from "./eval-cases.js";

/** One run of one case: what the agent loaded, and whether that is what the case expects. */
export interface EvalRun {
  case: EvalCase;
  /** 1-based, up to `--repeat`. */
  run: number;
  /** Skills loaded during the run (by the model, or by a `/name` in the case), sorted, once each. */
  loaded: string[];
  pass: boolean;
  usage: TokenUsage;
  modelCalls: number;
  stepLimitReached: boolean;
  /** The error that ended the run, one line; such a run does not pass. */
  error?: string;
}

/** A skill loaded where another was expected; `null` stands for "no skill". */
export interface Confusion {
  expected: string | null;
  loaded: string | null;
  count: number;
}

/** The totals of an eval. */
export interface EvalSummary {
  passed: number;
  total: number;
  /** Correct loads over all loads; 1 when nothing was loaded; null when every run ended in an error. */
  precision: number | null;
  /** Expected skills loaded over all expected skills; 1 when none was expected; null when every run ended in an error. */
  recall: number | null;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Most frequent first, then by expected and loaded skill. */
  confusions: Confusion[];
  usage: TokenUsage;
  modelCalls: number;
  errors: number;
}

/** A run passes when it loaded exactly the expected skills, no more, no fewer, and did not fail. */
export function runPasses(expected: readonly string[], loaded: readonly string[], error: string | undefined): boolean {
  return (
    error === undefined && expected.length === new Set(loaded).size && expected.every((name) => loaded.includes(name))
  );
}

/**
 * Totals over every run: precision and recall count (run, skill) pairs; each failing run adds
 * confusions, pairing every missed expected skill with every extra loaded one (or with `null`
 * when there is none on one side). Runs that ended in an error count as not passed and for
 * tokens, but not for precision, recall and confusions.
 */
export function summarizeEval(runs: readonly EvalRun[]): EvalSummary {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const confusions = new Map<string, Confusion>();
  const usage: TokenUsage = { input: 0, output: 0 };
  let modelCalls = 0;
  for (const run of runs) {
    usage.input += run.usage.input;
    usage.output += run.usage.output;
    modelCalls += run.modelCalls;
    // A run a provider error ended says nothing about which skills the model picks.
    if (run.error !== undefined) continue;
    const expected = run.case.expected;
    const missed = expected.filter((name) => !run.loaded.includes(name));
    const extra = run.loaded.filter((name) => !expected.includes(name));
    truePositives += expected.length - missed.length;
    falseNegatives += missed.length;
    falsePositives += extra.length;
    type Pair = [string | null, string | null];
    const pairs: Pair[] =
      missed.length === 0
        ? extra.map((name): Pair => [null, name])
        : missed.flatMap((name) =>
            extra.length === 0 ? [[name, null] as Pair] : extra.map((other): Pair => [name, other]),
          );
    for (const [wanted, got] of pairs) {
      const key = `${wanted}\u0000${got}`;
      const entry = confusions.get(key) ?? { expected: wanted, loaded: got, count: 0 };
      entry.count++;
      confusions.set(key, entry);
    }
  }
  const errors = runs.filter((run) => run.error !== undefined).length;
  // With no run that finished, nothing was measured: not a perfect score.
  const measured = errors < runs.length;
  return {
    passed: runs.filter((run) => run.pass).length,
    total: runs.length,
    precision: measured ? ratio(truePositives, truePositives + falsePositives) : null,
    recall: measured ? ratio(truePositives, truePositives + falseNegatives) : null,
    truePositives,
    falsePositives,
    falseNegatives,
    confusions: [...confusions.values()].sort(
      (a, b) => b.count - a.count || order(a.expected, b.expected) || order(a.loaded, b.loaded),
    ),
    usage,
    modelCalls,
    errors,
  };
}

// A share rounded to 4 places, so JSON carries 0.6667 rather than 0.6666666666666666.
function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : Math.round((part / whole) * 10_000) / 10_000;
}

function order(a: string | null, b: string | null): number {
  return (a ?? "").localeCompare(b ?? "");
}
