// Report objects of a small, plausible run of each command, built with the commands' own report
// functions where they have them, for the renderers' tests, the browser test and the docs'
// screenshots. The numbers are chosen so that every page shows passes and failures.
import type { DoctorJsonReport } from "../../doctor-json-report.js";
import type { EvalCase } from "../../eval/eval-cases.js";
import { evalReport, type EvalJsonReport } from "../../eval/eval-report.js";
import { summarizeEval, type EvalRun } from "../../eval/eval-score.js";
import { triggerReport, type TriggerJsonReport } from "../../eval/trigger-report.js";
import { passCount, scoreTriggers, type TriggerRun } from "../../eval/trigger-score.js";
import type { TuneJsonReport } from "../../eval/tune-report.js";
import type { ReportProvenance } from "../html-page.js";

/** A fixed origin for every fixture page. */
export const PROVENANCE: ReportProvenance = {
  command: "skillset eval skills --model openai:gpt-4o-mini --html eval-report.html",
  date: "2026-11-20T14:03:07.000Z",
  model: "openai:gpt-4o-mini",
};

const usage = { input: 0, output: 0 };

// [query, should trigger, runs of 3 that loaded the skill]
type Measured = [string, boolean, number];

function measured(skill: string, file: string, queries: readonly Measured[]) {
  const runs: TriggerRun[] = queries.flatMap(([, , triggers], index) =>
    [0, 1, 2].map((run) => ({ index, triggered: run < triggers, usage })),
  );
  return scoreTriggers(
    skill,
    file,
    queries.map(([query, shouldTrigger]) => ({ query, shouldTrigger })),
    runs,
  );
}

/** Two skills, 16 queries, 3 runs each: 3 queries fail. */
export function triggerFixture(): TriggerJsonReport {
  const reports = [
    measured("csv-insights", "skills/csv-insights/evals/eval_queries.json", [
      ["Profile orders.csv and tell me which columns have missing values", true, 3],
      ["What is in this spreadsheet export?", true, 1],
      ["Summarise the columns of data.tsv", true, 3],
      ["Give me quick stats on the sales table I attached", true, 2],
      ["Which rows of customers.csv look like duplicates?", true, 3],
      ["Convert this CSV to a YAML file", false, 2],
      ["Write a SQL query that joins orders and customers", false, 0],
      ["Plot revenue per month from the database", false, 1],
      ["Fix the formula in cell B2 of my workbook", false, 0],
      ["Upload each row of the CSV to postgres", false, 3],
    ]),
    measured("release-notes", "skills/release-notes/evals/eval_queries.json", [
      ["Draft release notes for v2.3 from the git log", true, 3],
      ["What changed since the last tag? Write it up for users", true, 3],
      ["Summarise the merged pull requests of this sprint", true, 2],
      ["Write a commit message for this diff", false, 0],
      ["Tag the release and push it", false, 1],
      ["Review this changelog entry for typos", false, 1],
    ]),
  ];
  return triggerReport(reports, passCount(reports.flatMap((report) => report.results)));
}

function evalCase(id: string, request: string, expected: string[]): EvalCase {
  return { id, request, expected, turns: [], draft: false };
}

/** Five cases run 3 times each: one fails every run, one fails once. */
export function scenarioFixture(): EvalJsonReport {
  const cases: Array<[EvalCase, string[][]]> = [
    [evalCase("profile-orders", "Profile orders.csv for me", ["csv-insights"]), [["csv-insights"], ["csv-insights"], ["csv-insights"]]],
    [evalCase("changelog", "Write the release notes for v2", ["release-notes"]), [["release-notes"], ["release-notes"], ["release-notes"]]],
    [evalCase("error-shape", "Are the error responses of this API consistent?", ["api-error-review"]), [["api-error-review"], [], ["api-error-review"]]],
    [evalCase("small-talk", "Hello, how are you?", []), [[], [], []]],
    [evalCase("spreadsheet", "Fix the formula in my spreadsheet", []), [["csv-insights"], ["csv-insights"], ["csv-insights"]]],
  ];
  const runs: EvalRun[] = cases.flatMap(([entry, outcomes]) =>
    outcomes.map((loaded, index) => ({
      case: entry,
      run: index + 1,
      loaded,
      pass: loaded.length === entry.expected.length && entry.expected.every((name) => loaded.includes(name)),
      usage,
      modelCalls: 1,
      stepLimitReached: false,
    })),
  );
  return evalReport(runs, summarizeEval(runs));
}

const count = (passed: number, total: number) => ({ passed, total, pass_rate: Math.round((passed / total) * 10_000) / 10_000 });
const query = (text: string, should: boolean) => ({ query: text, should_trigger: should });

/** Four descriptions measured: iteration 2 wins on validation; iteration 3 passes all of train and overfits. */
export function tuneFixture(): TuneJsonReport {
  const descriptions = [
    "Profile CSV files: column types, missing values and summary statistics.",
    "Profile CSV and TSV files and spreadsheets: column types, missing values and summary statistics. Use when the user shares a data file.",
    "Profile tabular data in CSV or TSV files and spreadsheets: column types, missing values, outliers and summary statistics. Use when the user shares a data file or asks what is in a table.",
    "Use for any table, spreadsheet, CSV, TSV, database export, workbook or data question whatsoever.",
  ];
  const rates: Array<[number, number]> = [
    [7, 4],
    [9, 6],
    [11, 7],
    [12, 5],
  ];
  return {
    skill: "csv-insights",
    file: "skills/csv-insights/evals/eval_queries.json",
    split: {
      train: [
        ...["Profile orders.csv", "What is in this export?", "Summarise data.tsv", "Stats on the sales table", "Duplicates in customers.csv", "Column types of users.csv"].map((text) => query(text, true)),
        ...["Convert CSV to YAML", "Join orders and customers in SQL", "Plot revenue per month", "Fix cell B2", "Upload rows to postgres", "Write release notes"].map((text) => query(text, false)),
      ],
      validation: [
        ...["Missing values in the export", "Outliers in prices.csv", "What columns does data.tsv have", "Describe this table"].map((text) => query(text, true)),
        ...["Update the formulas in my spreadsheet", "Email this CSV to the team", "Sort my photos", "Hello there"].map((text) => query(text, false)),
      ],
    },
    iterations: descriptions.map((description, iteration) => ({
      iteration,
      description,
      train: count(rates[iteration]![0], 12),
      validation: count(rates[iteration]![1], 8),
    })),
    rejected: [],
    best: { iteration: 2, description: descriptions[2]! },
    written: false,
  };
}

const finding = (
  severity: "error" | "warning" | "info",
  code: string,
  skill: string,
  message: string,
  fix: string,
  extra: { related?: string; value?: number; file?: string } = {},
) => ({ code, severity, skill, file: extra.file ?? `project/${skill}/SKILL.md`, message, fix, ...extra });

/** Eight skills under a 500-token budget that leaves three of them less than whole. */
export function doctorFixture(): DoctorJsonReport {
  const costs: Array<[string, number, DoctorJsonReport["catalog"]["skills"][number]["place"]]> = [
    ["db-migrate", 94, "whole"],
    ["pdf-extract", 86, "whole"],
    ["pdf-text", 83, "whole"],
    ["release-notes", 71, "shortened"],
    ["csv-insights", 66, "whole"],
    ["sql-format", 57, "shortened"],
    ["pdf-tools", 52, "name only"],
    ["draft-skill", 0, "user only"],
  ];
  const skills = costs.map(([name, tokens, place]) => ({ name, path: `project/${name}/SKILL.md`, tokens, place }));
  const findings = [
    finding("error", "placeholder-description", "draft-skill", "'draft-skill' still has the placeholder description skillset create wrote", "Write what the skill does and when to use it, in the words of the requests it is for"),
    finding("warning", "body-too-many-lines", "db-migrate", "'db-migrate' has 523 lines in its body, over the 500 the Agent Skills guidance suggests", "Move detail into references/ files the body names, so the model reads them only when needed", { value: 523 }),
    finding("warning", "rival-skills", "pdf-extract", "'pdf-extract' and 'pdf-text' describe the same job (lexical overlap 92%): a model may load either for the other's requests", "Say in each description what sets it apart (its inputs, its task, when not to use it), or merge the two skills; check with `skillset search` on requests meant for each", { related: "pdf-text", value: 0.92 }),
    finding("warning", "rival-skills", "pdf-text", "'pdf-text' and 'pdf-tools' describe the same job (lexical overlap 64%): a model may load either for the other's requests", "Say in each description what sets it apart (its inputs, its task, when not to use it), or merge the two skills; check with `skillset search` on requests meant for each", { related: "pdf-tools", value: 0.64 }),
    finding("warning", "catalog-name-only", "pdf-tools", "Under the catalog budget of 500 tokens, the model's catalog shows 'pdf-tools' by name only, without its description; its whole line takes 52 tokens", "Shorten the longest descriptions of the library (see the catalog costs), remove skills it does not need, or raise catalogBudget; catalogPriority keeps chosen skills whole", { value: 52 }),
    finding("warning", "unmentioned-resource", "sql-format", "'sql-format' ships assets/logo.txt, which its SKILL.md never mentions: the model will not know to use it", "Name the file in the body where the model needs it, or delete it", { file: "project/sql-format/assets/logo.txt" }),
    finding("info", "catalog-shortened", "release-notes", "Under the catalog budget of 500 tokens, the model's catalog shows 'release-notes' with its description shortened; its whole line takes 71 tokens", "Shorten the longest descriptions of the library (see the catalog costs), remove skills it does not need, or raise catalogBudget; catalogPriority keeps chosen skills whole", { value: 71 }),
    finding("info", "catalog-shortened", "sql-format", "Under the catalog budget of 500 tokens, the model's catalog shows 'sql-format' with its description shortened; its whole line takes 57 tokens", "Shorten the longest descriptions of the library (see the catalog costs), remove skills it does not need, or raise catalogBudget; catalogPriority keeps chosen skills whole", { value: 57 }),
  ];
  return {
    skills: skills.length,
    summary: { error: 1, warning: 5, info: 2 },
    failOn: "error",
    ok: false,
    findings,
    catalog: { budget: 500, tokens: 488, wholeTokens: skills.reduce((sum, skill) => sum + skill.tokens, 0), skills },
    threads: { examined: false, reason: "--no-threads" },
    embeddings: { examined: false, reason: "no --embeddings" },
  };
}
