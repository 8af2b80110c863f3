import type { TriggerSplit } from "./trigger-split.js";
import { passCount, type PassCount, type SkillTriggerReport, type TriggerResult } from "./trigger-score.js";

/** Why a proposal that repeats a measured description is refused. */
export const ALREADY_TRIED = "It is a description already tried; propose a different one";

/** One description, measured on both parts of the split. */
export interface TuneStep {
  /** 0 for the description the skill has. */
  iteration: number;
  description: string;
  train: TriggerResult[];
  validation: TriggerResult[];
  trainPass: PassCount;
  validationPass: PassCount;
}

/** A proposal refused before it was measured. */
export interface RejectedProposal {
  iteration: number;
  description: string;
  /** The reference validator's messages. */
  problems: string[];
}

/** What the tuning loop needs from outside: measuring, asking the model, validating. */
export interface TuneDependencies {
  /** Measures a description over every query of the split (both parts in one go). */
  measure(description: string): Promise<SkillTriggerReport>;
  /**
   * A new description from the current one's TRAIN failures and the earlier attempts' train
   * pass rates (never validation results); `problems` says why the previous answer was refused.
   */
  propose(current: TuneStep, earlier: readonly TuneStep[], problems?: readonly string[]): Promise<string>;
  /** The reference validator's problems with a description; none when valid. */
  check(description: string): string[];
  /** Called as each step is measured or a proposal refused. */
  onStep?(step: TuneStep): void;
  onRejected?(rejected: RejectedProposal): void;
}

/** How tuning went. */
export interface TuneOutcome {
  steps: TuneStep[];
  rejected: RejectedProposal[];
  /** The step with the best validation pass rate (then train; then the earliest). */
  best: TuneStep;
  /** Why the loop ended: every train query passed, or the iterations ran out. */
  stopped: "train-passed" | "iterations";
}

/**
 * agentskills.io's optimization loop: measure the description on train and validation; while a
 * train query fails and iterations are left, ask for a new description from the train failures
 * (one the validator refuses, or one already measured, is asked for again once, saying why), and measure it. The
 * best description is chosen by validation pass rate alone, so it may be an earlier one than the
 * last, or the original.
 */
export async function tuneDescription(
  original: string,
  split: TriggerSplit,
  iterations: number,
  deps: TuneDependencies,
): Promise<TuneOutcome> {
  const steps: TuneStep[] = [];
  const rejected: RejectedProposal[] = [];
  const measure = async (iteration: number, description: string) => {
    const step = stepOf(iteration, description, split, await deps.measure(description));
    steps.push(step);
    deps.onStep?.(step);
    return step;
  };
  let current = await measure(0, original);
  let stopped: TuneOutcome["stopped"] = "iterations";
  for (let iteration = 1; iteration <= iterations; iteration++) {
    if (current.trainPass.passed === current.trainPass.total) {
      stopped = "train-passed";
      break;
    }
    // A description measured before would only measure the same again.
    const problemsOf = (description: string) => [
      ...deps.check(description),
      ...(steps.some((step) => step.description === description) ? [ALREADY_TRIED] : []),
    ];
    let proposal = (await deps.propose(current, steps)).trim();
    let problems = problemsOf(proposal);
    if (problems.length > 0) {
      proposal = (await deps.propose(current, steps, problems)).trim();
      problems = problemsOf(proposal);
    }
    if (problems.length > 0) {
      const refused = { iteration, description: proposal, problems };
      rejected.push(refused);
      deps.onRejected?.(refused);
      continue;
    }
    current = await measure(iteration, proposal);
  }
  if (stopped === "iterations" && current.trainPass.passed === current.trainPass.total) stopped = "train-passed";
  return { steps, rejected, best: bestStep(steps), stopped };
}

/** The best validation pass rate, then the best train pass rate, then the earliest. */
export function bestStep(steps: readonly TuneStep[]): TuneStep {
  return steps.reduce((best, step) => {
    const validation = step.validationPass.passRate - best.validationPass.passRate;
    if (validation !== 0) return validation > 0 ? step : best;
    return step.trainPass.passRate > best.trainPass.passRate ? step : best;
  });
}

// The report's results, divided by the split's parts.
function stepOf(iteration: number, description: string, split: TriggerSplit, report: SkillTriggerReport): TuneStep {
  const inPart = (part: TriggerSplit["train"]) =>
    report.results.filter((result) => part.some((entry) => entry.query === result.query));
  const train = inPart(split.train);
  const validation = inPart(split.validation);
  return {
    iteration,
    description,
    train,
    validation,
    trainPass: passCount(train),
    validationPass: passCount(validation),
  };
}
