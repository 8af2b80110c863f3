import { existsSync, statSync } from "node:fs";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";
import { plural } from "../plural.js";
import { readCasesFile } from "./eval-cases.js";
import { skillOfTriggerEvals, triggerEvalsInFolder } from "./find-trigger-evals.js";
import { measureTriggers, type TriggerRunSettings } from "./trigger-eval-run.js";
import { parseTriggerEvals, type TriggerQuery } from "./trigger-evals.js";
import { reportProvenance } from "../html-report/report-provenance.js";
import { triggerEvalPage } from "../html-report/trigger-eval-page.js";
import { writeHtmlReport } from "../html-report/write-html-report.js";
import { formatTriggerReport, triggerReport } from "./trigger-report.js";
import { passCount, type SkillTriggerReport } from "./trigger-score.js";

/** Runs of each trigger query unless `--repeat` says otherwise: agentskills.io's starting point. */
export const DEFAULT_TRIGGER_RUNS = 3;

/** A skill's trigger queries, read and checked. */
export interface TriggerEvalSet {
  skill: string;
  file: string;
  queries: TriggerQuery[];
}

/** Whether `path` is a folder (then `eval` reads the trigger evals of the skills in it). */
export function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * The trigger evals `eval <target>` stands for: every skill's `evals/eval_queries.json` in a
 * folder, or the file given (with its text, already read), for `--skill` or the skill whose
 * folder holds it. Every file is parsed before any model is called.
 */
export function triggerEvalSets(
  target: string,
  text: string | undefined,
  skills: readonly SkillMetadata[],
  named: string | undefined,
): TriggerEvalSet[] {
  const targets =
    text === undefined
      ? triggerEvalsInFolder(target, skills)
      : [{ skill: skillOfTriggerEvals(target, skills, named), file: target }];
  return targets.map((entry) => ({
    ...entry,
    queries: parseTriggerEvals(text ?? readCasesFile(entry.file), entry.file),
  }));
}

/**
 * A warning for each measured skill the model cannot load by its description
 * (`disable-model-invocation: true`): only a `/name` in a query can trigger it.
 */
export function unselectableWarnings(sets: readonly TriggerEvalSet[], skills: readonly SkillMetadata[]): string[] {
  return sets
    .filter((set) => skills.find((skill) => skill.name === set.skill)?.disableModelInvocation)
    .map(
      (set) =>
        `${set.skill} has disable-model-invocation: true, so the model never loads it by its description: only a /${set.skill} in a query triggers it.`,
    );
}

/** What `eval` prints and exits with for trigger evals. */
export interface TriggerEvalOutput {
  json: boolean;
  /** `--html <file>`, with the model for the page's header. */
  html?: { file: string; model: string };
  /** `--min-pass` as a rate, and as given (for the message). */
  minPass?: { rate: number; given: string };
}

/**
 * Measures each skill's queries, prints the report (or `--json`) on stdout, and returns the exit
 * code: 1 when a run ended in an error or fewer queries passed than `--min-pass`.
 */
export async function runTriggerEvals(
  sets: readonly TriggerEvalSet[],
  sources: readonly SkillSource[],
  settings: TriggerRunSettings,
  output: TriggerEvalOutput,
): Promise<number> {
  const { terminal } = settings;
  const reports: SkillTriggerReport[] = [];
  for (const set of sets) reports.push(await measureTriggers(set.skill, set.file, set.queries, sources, settings));
  const summary = passCount(reports.flatMap((report) => report.results));
  const report = triggerReport(reports, summary);
  terminal.out(output.json ? JSON.stringify(report, null, 2) : formatTriggerReport(reports, summary, terminal.color));
  if (output.html)
    writeHtmlReport(output.html.file, triggerEvalPage(report, reportProvenance(output.html.model)), terminal);

  let code = 0;
  const errors = reports.flatMap((report) => report.results).reduce((sum, result) => sum + result.errors, 0);
  if (errors > 0) {
    terminal.err(`skillset: ${plural(errors, "run")} ended in an error, so the numbers are incomplete.`);
    code = 1;
  }
  if (output.minPass && summary.passed < output.minPass.rate * summary.total) {
    terminal.err(
      `skillset: ${summary.passed}/${summary.total} queries passed, under --min-pass ${output.minPass.given}.`,
    );
    code = 1;
  }
  return code;
}
