import { printable } from "../../core/text/safe-text.js";
import { plural } from "../plural.js";
import type { TriggerSplit } from "./trigger-split.js";
import { passCountJson, passLine, type PassCountJson } from "./trigger-report.js";
import type { PassCount } from "./trigger-score.js";
import type { RejectedProposal, TuneOutcome, TuneStep } from "./tune-loop.js";

/** What is being tuned, on what, and the table's heading. */
export function tuneHeader(
  skill: string,
  file: string,
  split: TriggerSplit,
  repeat: number,
  iterations: number,
): string {
  const part = (queries: TriggerSplit["train"]) =>
    `${plural(queries.length, "query", "queries")} (${queries.filter((entry) => entry.shouldTrigger).length} should trigger)`;
  return [
    `Tuning the description of ${skill} on ${printable(file)}, ${plural(repeat, "run")} per query, up to ${plural(iterations, "iteration")}`,
    `Train: ${part(split.train)} · validation: ${part(split.validation)}`,
    "",
    row("ITERATION", "TRAIN", "VALIDATION"),
  ].join("\n");
}

/** One row of the table, printed as the step is measured. */
export function stepRow(step: TuneStep): string {
  return row(
    step.iteration === 0 ? "0 (current)" : String(step.iteration),
    short(step.trainPass),
    short(step.validationPass),
  );
}

/** The line on stderr for a proposal the validator refused twice. */
export function rejectedLine(rejected: RejectedProposal): string {
  return `Iteration ${rejected.iteration}: the proposed description is not valid (${rejected.problems.join("; ")}); it was not measured.`;
}

/** The best iteration, and the description before and after. */
export function tuneSummary(outcome: TuneOutcome): string {
  const original = outcome.steps[0]!;
  const best = outcome.best;
  const lines = [""];
  lines.push(
    outcome.stopped === "train-passed"
      ? "Stopped: every train query passed."
      : `Stopped after ${plural(outcome.steps.length - 1 + outcome.rejected.length, "iteration")}.`,
  );
  if (best.iteration === 0)
    lines.push(
      `Best: the current description (validation ${passLine(best.validationPass)}); no iteration did better on validation.`,
    );
  else
    lines.push(
      `Best: iteration ${best.iteration}, validation ${passLine(best.validationPass)} (was ${passLine(original.validationPass)}); train ${passLine(best.trainPass)} (was ${passLine(original.trainPass)})`,
    );
  lines.push("", "Before:", indent(original.description), "", "After:", indent(best.description));
  return lines.join("\n");
}

/** The `--json` report of `skillset tune`, the object `--html` draws too. */
export interface TuneJsonReport {
  skill: string;
  file: string;
  split: { train: TriggerQueryJson[]; validation: TriggerQueryJson[] };
  iterations: Array<{ iteration: number; description: string; train: PassCountJson; validation: PassCountJson }>;
  rejected: RejectedProposal[];
  best: { iteration: number; description: string };
  written: boolean;
}

/** A trigger query in the eval file's form. */
export interface TriggerQueryJson {
  query: string;
  should_trigger: boolean;
}

/**
 * The `--json` report, exactly `{"skill","file","split":{"train":[…],"validation":[…]},
 * "iterations":[{"iteration","description","train":{"passed","total","pass_rate"},"validation":{…}}],
 * "rejected":[{"iteration","description","problems"}],"best":{"iteration","description"},"written"}`;
 * the split lists each part's queries as in the eval file.
 */
export function tuneReport(
  skill: string,
  file: string,
  split: TriggerSplit,
  outcome: TuneOutcome,
  written: boolean,
): TuneJsonReport {
  const queries = (part: TriggerSplit["train"]) =>
    part.map((entry) => ({ query: entry.query, should_trigger: entry.shouldTrigger }));
  return {
    skill,
    file,
    split: { train: queries(split.train), validation: queries(split.validation) },
    iterations: outcome.steps.map((step) => ({
      iteration: step.iteration,
      description: step.description,
      train: passCountJson(step.trainPass),
      validation: passCountJson(step.validationPass),
    })),
    rejected: outcome.rejected,
    best: { iteration: outcome.best.iteration, description: outcome.best.description },
    written,
  };
}

/** {@link tuneReport} as the text `--json` prints. */
export function tuneJson(report: TuneJsonReport): string {
  return JSON.stringify(report, null, 2);
}

function row(iteration: string, train: string, validation: string): string {
  return `${iteration.padEnd(11)}  ${train.padEnd(13)}  ${validation}`.trimEnd();
}

// `7/12 (58.3%)`.
function short(count: PassCount): string {
  return passLine(count).replace(" passed", "");
}

// Each line indented, control characters (from the file or the model) shown as escapes.
function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${printable(line)}`)
    .join("\n");
}
