import type { EvalJsonReport } from "../eval/eval-report.js";
import { plural } from "../plural.js";
import { htmlPage, type ReportProvenance } from "./html-page.js";
import { failHeadline, html, percent } from "./html-text.js";
import { amountBar } from "./svg-bars.js";

type CaseScore = EvalJsonReport["by_case"][number];
type RunEntry = EvalJsonReport["cases"][number];

/**
 * The page of `skillset eval --html` for a cases file: how many runs fail first, then precision
 * and recall, then every case with its pass rate as a bar, its precision and recall and what its
 * runs loaded, the failing cases first.
 */
export function scenarioEvalPage(report: EvalJsonReport, provenance: ReportProvenance): string {
  const { summary } = report;
  const rate = summary.total === 0 ? 1 : summary.passed / summary.total;
  return htmlPage({
    kind: "skillset eval · cases",
    headline: failHeadline(summary.total - summary.passed, summary.total, "run", "runs"),
    lede: `${plural(report.by_case.length, "case")}, ${plural(summary.total, "run")}: a run passes when the model loads exactly the skills its case expects.`,
    stats: [
      { value: percent(rate), label: "of runs pass", tone: summary.passed === summary.total ? "good" : "bad" },
      { value: rateText(summary.precision), label: "precision: loads that were expected" },
      { value: rateText(summary.recall), label: "recall: expected skills loaded" },
    ],
    body: casesSection(report),
    provenance,
  });
}

function casesSection(report: EvalJsonReport): string {
  const runsOf = new Map<string, RunEntry[]>();
  for (const run of report.cases) runsOf.set(run.id, [...(runsOf.get(run.id) ?? []), run]);
  const ordered = report.by_case
    .map((score, index) => ({ score, index }))
    .sort((a, b) => a.score.pass_rate - b.score.pass_rate || a.index - b.index)
    .map(({ score }) => caseRow(score, runsOf.get(score.id) ?? []));
  return [
    '<section aria-labelledby="cases">',
    '<h2 id="cases">Cases, failing first</h2>',
    '<table class="cases">',
    '<thead><tr><th>Result</th><th>Case and request</th><th>Expected</th><th>Loaded</th><th class="num">Runs passed</th><th class="chart">Pass rate</th><th class="num">Precision</th><th class="num">Recall</th></tr></thead>',
    `<tbody>${ordered.join("")}</tbody>`,
    "</table>",
    '<p class="note">Precision is the share of a case\'s loads that were expected, recall the share of its expected skills that were loaded, over its runs (1 when there is nothing to count; runs that ended in an error are left out).</p>',
    "</section>",
  ].join("\n");
}

function caseRow(score: CaseScore, runs: readonly RunEntry[]): string {
  const first = runs[0];
  const all = score.passed === score.runs;
  const result = all
    ? '<span class="result good">✓ pass</span>'
    : `<span class="result bad">✗ ${score.passed === 0 ? "fail" : "flaky"}</span>`;
  const request = first ? `<br><span class="note">${html(first.request)}</span>` : "";
  return [
    `<tr class="${all ? "pass" : "fail"}">`,
    `<td>${result}</td>`,
    `<td class="text"><strong>${html(score.id)}</strong>${request}</td>`,
    `<td>${names(first?.expected ?? [])}</td>`,
    `<td>${loadedOutcomes(runs)}</td>`,
    `<td class="num">${score.passed}/${score.runs}</td>`,
    `<td class="chart">${amountBar(score.pass_rate, 1, all ? "pass" : "fail")}</td>`,
    `<td class="num">${rateText(score.precision)}</td>`,
    `<td class="num">${rateText(score.recall)}</td>`,
    "</tr>",
  ].join("");
}

// What the runs loaded, as markup: one outcome, or each with how many runs had it.
function loadedOutcomes(runs: readonly RunEntry[]): string {
  const outcomes = new Map<string, number>();
  for (const run of runs) outcomes.set(names(run.loaded), (outcomes.get(names(run.loaded)) ?? 0) + 1);
  if (outcomes.size <= 1) return [...outcomes.keys()][0] ?? "none";
  return [...outcomes].map(([text, times]) => `${text}&nbsp;×${times}`).join("<br>");
}

// Skill names, escaped, each kept on one line.
function names(list: readonly string[]): string {
  return list.length === 0 ? "none" : list.map((name) => `<span class="name">${html(name)}</span>`).join(", ");
}

// A score, or n/a when every run it counts ended in an error (nothing was measured).
function rateText(rate: number | null): string {
  return rate === null ? "n/a" : rate.toFixed(3);
}
