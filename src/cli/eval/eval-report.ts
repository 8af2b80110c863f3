import type { Colors } from "../terminal.js";
import { summarizeEval, type EvalRun, type EvalSummary } from "./eval-score.js";

/** The `--json` report of `skillset eval` on cases, the object `--html` draws too. */
export interface EvalJsonReport {
  cases: Array<{ id: string; request: string; expected: string[]; loaded: string[]; pass: boolean }>;
  /** Each case over its runs, in the cases' order: with `--repeat`, how many passed. */
  by_case: Array<{
    id: string;
    runs: number;
    passed: number;
    pass_rate: number;
    precision: number | null;
    recall: number | null;
  }>;
  summary: { passed: number; total: number; precision: number | null; recall: number | null };
}

/**
 * The `--json` report, exactly
 * `{"cases":[{"id","request","expected","loaded","pass"}],"by_case":[{"id","runs","passed","pass_rate","precision","recall"}],
 * "summary":{"passed","total","precision","recall"}}`, one `cases` entry per run (a case run
 * `--repeat` times appears that many times, in order), one `by_case` entry per case, scored as
 * the summary is (runs that ended in an error left out of precision and recall; null when every
 * run ended in an error).
 */
export function evalReport(runs: readonly EvalRun[], summary: EvalSummary): EvalJsonReport {
  const byCase = new Map<string, EvalRun[]>();
  for (const run of runs) byCase.set(run.case.id, [...(byCase.get(run.case.id) ?? []), run]);
  return {
    cases: runs.map((run) => ({
      id: run.case.id,
      request: run.case.request,
      expected: run.case.expected,
      loaded: run.loaded,
      pass: run.pass,
    })),
    by_case: [...byCase].map(([id, caseRuns]) => {
      const scored = summarizeEval(caseRuns);
      return {
        id,
        runs: scored.total,
        passed: scored.passed,
        pass_rate: Math.round((scored.passed / scored.total) * 10_000) / 10_000,
        precision: scored.precision,
        recall: scored.recall,
      };
    }),
    summary: { passed: summary.passed, total: summary.total, precision: summary.precision, recall: summary.recall },
  };
}

/** {@link evalReport} as the text `--json` prints. */
export function evalJson(runs: readonly EvalRun[], summary: EvalSummary): string {
  return JSON.stringify(evalReport(runs, summary), null, 2);
}

/**
 * The report for people: one line per case (with `--repeat`, how many runs passed and what each
 * loaded), then the totals, the confusions and the tokens.
 */
export function formatEvalReport(runs: readonly EvalRun[], summary: EvalSummary, color: Colors): string {
  const byCase = new Map<string, EvalRun[]>();
  for (const run of runs) byCase.set(run.case.id, [...(byCase.get(run.case.id) ?? []), run]);
  const rows = [...byCase.values()].map((caseRuns) => {
    const first = caseRuns[0]!;
    const passed = caseRuns.filter((run) => run.pass).length;
    const result =
      caseRuns.length === 1 ? (passed === 1 ? "PASS" : first.error ? "ERROR" : "FAIL") : `${passed}/${caseRuns.length}`;
    const paint = passed === caseRuns.length ? color.green : passed === 0 ? color.red : color.yellow;
    return {
      result,
      paint,
      id: first.case.id + (first.case.draft ? " (draft)" : ""),
      expected: names(first.case.expected),
      loaded: loadedColumn(caseRuns),
    };
  });
  const width = (pick: (row: (typeof rows)[number]) => string, title: string) =>
    Math.max(title.length, ...rows.map((row) => pick(row).length));
  const widths = [
    width((row) => row.result, "RESULT"),
    width((row) => row.id, "CASE"),
    width((row) => row.expected, "EXPECTED"),
  ];
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index < widths.length ? cell.padEnd(widths[index]!) : cell))
      .join("  ")
      .trimEnd();
  const lines = [color.bold(line(["RESULT", "CASE", "EXPECTED", "LOADED"]))];
  for (const row of rows)
    lines.push(line([row.result, row.id, row.expected, row.loaded]).replace(row.result, row.paint(row.result)));

  const percent = summary.total === 0 ? 0 : (summary.passed / summary.total) * 100;
  lines.push("");
  lines.push(
    `${summary.passed}/${summary.total} ${summary.total === 1 ? "run" : "runs"} passed (${formatPercent(percent)})` +
      ` · precision ${share(summary.precision)} (${summary.truePositives}/${summary.truePositives + summary.falsePositives} loads expected)` +
      ` · recall ${share(summary.recall)} (${summary.truePositives}/${summary.truePositives + summary.falseNegatives} expected skills loaded)`,
  );
  if (summary.confusions.length > 0) {
    lines.push("Confusions (expected → loaded instead):");
    for (const confusion of summary.confusions)
      lines.push(`  ${confusion.expected ?? "none"} → ${confusion.loaded ?? "none"}  ×${confusion.count}`);
  }
  const total = summary.usage.input + summary.usage.output;
  lines.push(
    `Tokens: ${total.toLocaleString("en-US")} (${summary.usage.input.toLocaleString("en-US")} input, ${summary.usage.output.toLocaleString("en-US")} output) over ${summary.modelCalls} model ${summary.modelCalls === 1 ? "call" : "calls"}`,
  );
  return lines.join("\n");
}

// What the runs of one case loaded: the same for all, or each distinct outcome with its count.
function loadedColumn(runs: readonly EvalRun[]): string {
  const outcomes = new Map<string, number>();
  for (const run of runs) {
    const text = run.error
      ? `error: ${run.error}`
      : names(run.loaded) + (run.stepLimitReached ? " (step limit reached)" : "");
    outcomes.set(text, (outcomes.get(text) ?? 0) + 1);
  }
  if (outcomes.size === 1) return [...outcomes.keys()][0]!;
  return [...outcomes].map(([text, count]) => `${text} ×${count}`).join("; ");
}

function names(list: readonly string[]): string {
  return list.length === 0 ? "none" : list.join(", ");
}

// A precision or recall, `n/a` when no run finished to measure it.
function share(value: number | null): string {
  return value === null ? "n/a" : value.toFixed(3);
}

function formatPercent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}
