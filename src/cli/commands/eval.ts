import { existsSync, writeFileSync } from "node:fs";
import { MemorySaver } from "@langchain/langgraph";
import { createCatalog } from "../../core/catalog/catalog.js";
import type { SkillRanker } from "../../core/search/skill-search.js";
import type { SkillSource } from "../../core/skill-source.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import { createChatAgent } from "../chat/chat-agent.js";
import { createChatModel, modelOptionsFrom, type ChatModel, type ModelCliOptions } from "../chat/chat-model.js";
import { describeTurnError } from "../chat/turn-error.js";
import { CliError } from "../cli-error.js";
import { draftCases } from "../eval/draft-cases.js";
import { parseEvalCases, readCasesFile, type EvalCase } from "../eval/eval-cases.js";
import { evalJson, evalReport, formatEvalReport } from "../eval/eval-report.js";
import { summarizeEval } from "../eval/eval-score.js";
import {
  DEFAULT_TRIGGER_RUNS,
  isFolder,
  runTriggerEvals,
  triggerEvalSets,
  unselectableWarnings,
} from "../eval/trigger-eval-command.js";
import { isTriggerEvals, refuseSkillOption } from "../eval/trigger-evals.js";
import { runEval } from "../eval/run-eval.js";
import { reportProvenance } from "../html-report/report-provenance.js";
import { scenarioEvalPage } from "../html-report/scenario-eval-page.js";
import { writeHtmlReport } from "../html-report/write-html-report.js";
import { cliSource, sourceLocations, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { searchRankers } from "../search-rankers.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset eval`. */
export interface EvalOptions extends SourceOptions, ModelCliOptions {
  json?: boolean;
  repeat?: string;
  minPass?: string;
  maxSteps?: string;
  concurrency?: string;
  generate?: boolean;
  allowScripts?: boolean;
  files?: boolean;
  /** The skill a trigger-eval file measures, when the file is not in its folder. */
  skill?: string;
  /** `--embeddings <provider:model>`: `search_skills` also ranks by meaning. */
  embeddings?: string;
  /** `--html <file>`: also write the report as a self-contained web page there. */
  html?: string;
}

/** Default `--max-steps`: model calls per turn of a case. */
export const DEFAULT_MAX_STEPS = 8;
/** Default `--concurrency`. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * `skillset eval <cases> [sources...] --model …`: runs each case's request through the real
 * agent and reports which skills it loaded against the ones expected, with precision, recall,
 * confusions and tokens; exit 1 under `--min-pass`. With `--generate`, drafts the cases file
 * from the skills' descriptions instead. Given trigger evals (agentskills.io's format, a file or
 * a folder of skills that have them), reports each query's trigger rate and each skill's pass rates.
 */
export async function evalCommand(
  casesFile: string,
  paths: string[],
  options: EvalOptions,
  terminal: Terminal,
): Promise<number> {
  const modelOptions = modelOptionsFrom(options);
  const maxSteps = wholeNumber(options.maxSteps, "--max-steps", DEFAULT_MAX_STEPS);
  const concurrency = wholeNumber(options.concurrency, "--concurrency", DEFAULT_CONCURRENCY);
  const minPass = options.minPass === undefined ? undefined : passRate(options.minPass);
  if (options.generate && casesFile !== "-" && existsSync(casesFile)) {
    throw new CliError(
      "already-exists",
      `${casesFile} already exists; --generate does not overwrite it: name a new file, or - for stdout`,
    );
  }
  if (options.generate && options.html !== undefined)
    throw new CliError("usage", "--html writes the report of an eval; --generate drafts cases and has none");
  const folder = !options.generate && isFolder(casesFile);
  const casesText = options.generate || folder ? undefined : readCasesFile(casesFile);
  const trigger = folder || (casesText !== undefined && isTriggerEvals(casesText));
  if (options.skill !== undefined && (!trigger || folder)) refuseSkillOption(casesText, casesFile);
  const repeat = wholeNumber(options.repeat, "--repeat", trigger ? DEFAULT_TRIGGER_RUNS : 1);

  const sources = sourceLocations(paths).map((path) => cliSource(path, options));
  const snapshot = await createCatalog(sources).refresh();
  if (trigger) {
    const sets = triggerEvalSets(casesFile, casesText, snapshot.skills, options.skill);
    for (const warning of unselectableWarnings(sets, snapshot.skills)) terminal.err(terminal.color.yellow(warning));
    const model = await createChatModel(modelOptions);
    const settings = {
      model,
      timeoutMs: modelOptions.timeoutMs,
      repeat,
      concurrency,
      maxSteps,
      allowScripts: options.allowScripts ?? false,
      terminal,
      ...(options.files ? { filesRoot: process.cwd() } : {}),
    };
    return runTriggerEvals(sets, sources, settings, {
      json: options.json ?? false,
      ...(options.html === undefined ? {} : { html: { file: options.html, model: options.model } }),
      ...(minPass === undefined ? {} : { minPass: { rate: minPass, given: options.minPass! } }),
    });
  }
  // Parsed once the skills are known, so a case's problems and an unknown skill come in one report.
  const cases =
    casesText === undefined
      ? []
      : parseEvalCases(
          casesText,
          casesFile,
          snapshot.skills.map((skill) => skill.name),
        );
  const model = await createChatModel(modelOptions);
  if (options.generate)
    return generateCases(casesFile, snapshot.skills, model, modelOptions.timeoutMs, options, terminal);
  const rankers = await searchRankers(options.embeddings, terminal, "warn");
  const settings = { sources, model, timeoutMs: modelOptions.timeoutMs, rankers, repeat, concurrency, maxSteps };
  return runCases(cases, settings, minPass, options, terminal);
}

// `--generate`: drafts cases from the skills' descriptions into `casesFile` (stdout for `-`).
async function generateCases(
  casesFile: string,
  skills: readonly SkillMetadata[],
  model: ChatModel,
  timeoutMs: number,
  options: EvalOptions,
  terminal: Terminal,
): Promise<number> {
  const drafted = await draftCases(model.model, skills, options.model).catch((error: unknown) => {
    throw new CliError("provider", describeTurnError(error, model, timeoutMs).message);
  });
  if (casesFile === "-") terminal.out(drafted.text);
  else writeFileSync(casesFile, drafted.text, { flag: "wx" });
  const where = casesFile === "-" ? "" : ` into ${casesFile}`;
  terminal.err(
    `Drafted ${plural(drafted.cases, "case")} from ${plural(skills.length, "skill")}${where} (${tokens(drafted.usage)}); review them, then delete \`draft: true\`.`,
  );
  if (drafted.placeholders.length > 0)
    terminal.err(
      terminal.color.yellow(
        `No usable requests came back for ${drafted.placeholders.join(", ")}: their cases say TODO.`,
      ),
    );
  return 0;
}

/** How `runCases` runs the cases: through which sources and model, how often and how many at once. */
interface CaseRunSettings {
  sources: readonly SkillSource[];
  model: ChatModel;
  timeoutMs: number;
  rankers: SkillRanker[] | undefined;
  repeat: number;
  concurrency: number;
  maxSteps: number;
}

// Runs each case through the agent, prints the report and returns the exit code.
async function runCases(
  cases: readonly EvalCase[],
  { sources, model, timeoutMs, rankers, repeat, concurrency, maxSteps }: CaseRunSettings,
  minPass: number | undefined,
  options: EvalOptions,
  terminal: Terminal,
): Promise<number> {
  const drafts = cases.filter((entry) => entry.draft).length;
  if (drafts > 0)
    terminal.err(
      terminal.color.yellow(
        `${plural(drafts, "case")} ${drafts === 1 ? "is a draft" : "are drafts"} (draft: true): review ${drafts === 1 ? "it" : "them"} before trusting the numbers.`,
      ),
    );
  // Sources read without watching (watch: false), so there is nothing to close afterwards.
  const agent = createChatAgent({
    model: model.model,
    sources,
    allowScripts: options.allowScripts ?? false,
    ...(rankers ? { searchRankers: rankers } : {}),
    checkpointer: new MemorySaver(),
    maxModelCalls: maxSteps,
    ...(options.files ? { filesRoot: process.cwd() } : {}),
  });
  const runs = await runEval(cases, {
    agent,
    model,
    timeoutMs,
    repeat,
    concurrency,
    onRun: (run, done, total) => {
      if (run.error)
        terminal.err(
          terminal.color.red(
            `${terminal.interactive ? "\r\x1b[K" : ""}Case ${run.case.id}${repeat > 1 ? ` (run ${run.run})` : ""}: ${run.error}`,
          ),
        );
      if (terminal.interactive)
        terminal.status(done < total ? `\r\x1b[KEvaluating: ${done}/${total} runs` : "\r\x1b[K");
    },
  });
  const summary = summarizeEval(runs);
  terminal.out(options.json ? evalJson(runs, summary) : formatEvalReport(runs, summary, terminal.color));
  if (options.html !== undefined)
    writeHtmlReport(
      options.html,
      scenarioEvalPage(evalReport(runs, summary), reportProvenance(options.model)),
      terminal,
    );

  let code = 0;
  if (summary.errors > 0) {
    terminal.err(`skillset: ${plural(summary.errors, "run")} ended in an error, so the numbers are incomplete.`);
    code = 1;
  }
  if (minPass !== undefined && summary.passed < minPass * summary.total) {
    terminal.err(`skillset: ${summary.passed}/${summary.total} runs passed, under --min-pass ${options.minPass}.`);
    code = 1;
  }
  return code;
}

function tokens(usage: { input: number; output: number }): string {
  return `${(usage.input + usage.output).toLocaleString("en-US")} tokens`;
}

/** `--<option> <n>`: a whole number, 1 or more; `fallback` when not given. */
export function wholeNumber(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new CliError("usage", `${option} must be a whole number, 1 or more (got '${value}')`);
  return number;
}

// `0.9` or `90%`.
function passRate(value: string): number {
  const percent = value.endsWith("%");
  const number = Number(percent ? value.slice(0, -1) : value) / (percent ? 100 : 1);
  if (!value.trim() || !Number.isFinite(number) || number < 0 || number > 1)
    throw new CliError("usage", `--min-pass must be a rate from 0 to 1, or a percentage such as 90% (got '${value}')`);
  return number;
}
