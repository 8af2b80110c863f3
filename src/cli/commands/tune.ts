import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCatalog } from "../../core/catalog/catalog.js";
import { splitAtBody } from "../../core/skill-file/skill-document.js";
import { skillDirectory } from "../../core/skill-file/skill-metadata.js";
import { validateFrontmatter } from "../../core/skill-file/validate-frontmatter.js";
import { createChatModel, modelOptionsFrom, type ModelCliOptions } from "../chat/chat-model.js";
import type { TokenUsage } from "../chat/run-turn.js";
import { describeTurnError } from "../chat/turn-error.js";
import { CliError } from "../cli-error.js";
import { withDescription } from "../eval/described-source.js";
import { readCasesFile } from "../eval/eval-cases.js";
import { MAX_BODY_CHARACTERS, proposeDescription } from "../eval/propose-description.js";
import { DEFAULT_TRIGGER_RUNS } from "../eval/trigger-eval-command.js";
import { measureTriggers, type TriggerRunSettings } from "../eval/trigger-eval-run.js";
import { parseTriggerEvals, TRIGGER_EVALS_FILE } from "../eval/trigger-evals.js";
import { splitTriggerQueries } from "../eval/trigger-split.js";
import { tuneDescription, type TuneOutcome } from "../eval/tune-loop.js";
import { rejectedLine, stepRow, tuneHeader, tuneJson, tuneReport, tuneSummary } from "../eval/tune-report.js";
import { reportProvenance } from "../html-report/report-provenance.js";
import { tunePage } from "../html-report/tune-page.js";
import { writeHtmlReport } from "../html-report/write-html-report.js";
import { replaceDescription } from "../eval/write-description.js";
import { cliSource, sourceLocations, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { requireSkill } from "../require-skill.js";
import type { Terminal } from "../terminal.js";
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_STEPS, wholeNumber } from "./eval.js";

/** Options of `skillset tune`. */
export interface TuneOptions extends SourceOptions, ModelCliOptions {
  iterations?: string;
  write?: boolean;
  evals?: string;
  repeat?: string;
  maxSteps?: string;
  concurrency?: string;
  allowScripts?: boolean;
  files?: boolean;
  json?: boolean;
  /** `--html <file>`: also write the report as a self-contained web page there. */
  html?: string;
}

/** Default `--iterations`: agentskills.io finds five usually enough. */
export const DEFAULT_ITERATIONS = 5;

/**
 * `skillset tune <skill> [sources...] --model …`: tunes a skill's description on its trigger
 * evals, split 60/40 into train and validation: the model proposes descriptions from the train
 * failures, and the one with the best validation pass rate wins. Prints the table and the
 * description before and after; writes it into `SKILL.md` only with `--write`.
 */
export async function tuneCommand(
  name: string,
  paths: string[],
  options: TuneOptions,
  terminal: Terminal,
): Promise<number> {
  const modelOptions = modelOptionsFrom(options);
  const iterations = wholeNumber(options.iterations, "--iterations", DEFAULT_ITERATIONS);
  const sources = sourceLocations(paths).map((path) => cliSource(path, options));
  const skill = await requireSkill(await createCatalog(sources).refresh(), name);
  if (skill.disableModelInvocation)
    throw new CliError(
      "usage",
      `${name} has disable-model-invocation: true: the model never loads it by its description, so there is nothing to tune`,
    );
  const file = options.evals ?? join(skillDirectory(skill), TRIGGER_EVALS_FILE);
  const queries = parseTriggerEvals(readEvals(file, name, options.evals !== undefined), file);
  const split = splitTriggerQueries(queries);
  if (split.validation.length === 0)
    throw new CliError(
      "invalid-cases",
      `${file}: ${plural(queries.length, "query", "queries")} cannot be split into train and validation; tuning needs two of a kind at least, and agentskills.io suggests about 20 (8-10 that should trigger, 8-10 near misses)`,
    );
  const source = sources.find((entry) => entry.id === skill.source)!;
  // Through its source, which reads any kind of source and checks size and encoding.
  const skillText = new TextDecoder().decode(await source.readSkill(skill));
  const model = await createChatModel(modelOptions);
  const settings: TriggerRunSettings = {
    model,
    timeoutMs: modelOptions.timeoutMs,
    repeat: wholeNumber(options.repeat, "--repeat", DEFAULT_TRIGGER_RUNS),
    concurrency: wholeNumber(options.concurrency, "--concurrency", DEFAULT_CONCURRENCY),
    maxSteps: wholeNumber(options.maxSteps, "--max-steps", DEFAULT_MAX_STEPS),
    allowScripts: options.allowScripts ?? false,
    terminal,
    ...(options.files ? { filesRoot: process.cwd() } : {}),
  };

  const usage: TokenUsage = { input: 0, output: 0 };
  const tuned = { name: skill.name, body: splitAtBody(skillText).body.trim().slice(0, MAX_BODY_CHARACTERS) };
  const json = options.json ?? false;
  if (!json) terminal.out(tuneHeader(skill.name, file, split, settings.repeat, iterations));
  const outcome = await tuneDescription(skill.description, split, iterations, {
    measure: async (description) => {
      const report = await measureTriggers(
        skill.name,
        file,
        queries,
        sources.map((entry) => (entry === source ? withDescription(entry, skill.path, description) : entry)),
        settings,
      );
      usage.input += report.usage.input;
      usage.output += report.usage.output;
      return report;
    },
    propose: (current, earlier, problems) =>
      proposeDescription(model.model, tuned, current, earlier, problems, usage).catch((error: unknown) => {
        throw new CliError("provider", describeTurnError(error, model, modelOptions.timeoutMs).message);
      }),
    check: (description) =>
      validateFrontmatter({ name: skill.name, description }).filter((problem) => /description/i.test(problem)),
    onStep: (step) => {
      if (!json) terminal.out(stepRow(step));
    },
    onRejected: (rejected) => terminal.err(terminal.color.yellow(rejectedLine(rejected))),
  });
  if (!json) {
    terminal.out(tuneSummary(outcome));
    terminal.out(
      `\nTokens: ${(usage.input + usage.output).toLocaleString("en-US")} (${usage.input.toLocaleString("en-US")} input, ${usage.output.toLocaleString("en-US")} output)`,
    );
  }
  const { code, written } = finish(outcome, skill.path, options.write ?? false, terminal);
  const report = tuneReport(skill.name, file, split, outcome, written);
  if (json) terminal.out(tuneJson(report));
  if (options.html !== undefined)
    writeHtmlReport(options.html, tunePage(report, reportProvenance(options.model)), terminal);
  return code;
}

// Reports errors, and writes the best description when asked to and it is sound to.
function finish(
  outcome: TuneOutcome,
  path: string,
  write: boolean,
  terminal: Terminal,
): { code: number; written: boolean } {
  const errors = outcome.steps
    .flatMap((step) => [...step.train, ...step.validation])
    .reduce((sum, result) => sum + result.errors, 0);
  if (errors > 0) {
    terminal.err(
      `skillset: ${plural(errors, "run")} ended in an error, so the numbers are incomplete${write ? `; ${path} was not changed` : ""}.`,
    );
    return { code: 1, written: false };
  }
  if (outcome.best.iteration === 0) {
    if (write) terminal.err(`${path} was not changed: the current description did best.`);
    return { code: 0, written: false };
  }
  if (!write) {
    terminal.err(`Not written: run again with --write to put the new description into ${path}.`);
    return { code: 0, written: false };
  }
  if (!existsSync(path))
    throw new CliError("cannot-create", `Cannot write the description into ${path}: it is not a file on this machine`);
  // Read again: the file may have been edited while the model was being asked.
  writeFileSync(path, replaceDescription(readFileSync(path, "utf8"), outcome.best.description, path));
  terminal.err(`Wrote the new description into ${path}.`);
  return { code: 0, written: true };
}

function readEvals(file: string, skill: string, given: boolean): string {
  if (given) return readCasesFile(file);
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new CliError(
      "not-found",
      `${skill} has no trigger evals: ${file} does not exist. Write about 20 queries there, [{ "query": "…", "should_trigger": true }, …], or name the file with --evals`,
    );
  }
}
