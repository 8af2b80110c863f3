import { printable } from "../../core/text/safe-text.js";
import type { Colors } from "../terminal.js";
import type { PassCount, SkillTriggerReport, TriggerResult } from "./trigger-score.js";

/** A count of passed queries as `--json` gives it. */
export interface PassCountJson {
  passed: number;
  total: number;
  pass_rate: number;
}

/** The `--json` report of trigger evals, the object `skillset eval --html` draws too. */
export interface TriggerJsonReport {
  skills: Array<{
    skill: string;
    file: string;
    queries: Array<{
      query: string;
      should_trigger: boolean;
      triggers: number;
      runs: number;
      trigger_rate: number | null;
      pass: boolean;
    }>;
    should_trigger: PassCountJson;
    near_miss: PassCountJson;
  }>;
  summary: PassCountJson;
}

/**
 * The `--json` report of trigger evals, exactly
 * `{"skills":[{"skill","file","queries":[{"query","should_trigger","triggers","runs","trigger_rate","pass"}],
 * "should_trigger":{"passed","total","pass_rate"},"near_miss":{…}}],"summary":{"passed","total","pass_rate"}}`;
 * a query's fields are those of agentskills.io's eval script, plus `pass`.
 */
export function triggerReport(reports: readonly SkillTriggerReport[], summary: PassCount): TriggerJsonReport {
  return {
    skills: reports.map((report) => ({
      skill: report.skill,
      file: report.file,
      queries: report.results.map((result) => ({
        query: result.query,
        should_trigger: result.shouldTrigger,
        triggers: result.triggers,
        runs: result.runs,
        trigger_rate: result.triggerRate,
        pass: result.pass,
      })),
      should_trigger: passCountJson(report.shouldTrigger),
      near_miss: passCountJson(report.nearMiss),
    })),
    summary: passCountJson(summary),
  };
}

/** {@link triggerReport} as the text `--json` prints. */
export function triggerJson(reports: readonly SkillTriggerReport[], summary: PassCount): string {
  return JSON.stringify(triggerReport(reports, summary), null, 2);
}

/** A pass count in the JSON reports' form. */
export function passCountJson(value: PassCount): PassCountJson {
  return { passed: value.passed, total: value.total, pass_rate: value.passRate };
}

/**
 * The report for people: per skill, one line per query (result, how many runs loaded the skill,
 * whether it should have, the query), then the pass rates of should-trigger queries and near
 * misses; a total line when there is more than one skill, and the tokens.
 */
export function formatTriggerReport(reports: readonly SkillTriggerReport[], summary: PassCount, color: Colors): string {
  const lines: string[] = [];
  for (const report of reports) {
    if (lines.length > 0) lines.push("");
    lines.push(color.bold(`${report.skill} · ${printable(report.file)}`));
    lines.push(...queryLines(report.results, color));
    lines.push(`Should trigger: ${passLine(report.shouldTrigger)} · near misses: ${passLine(report.nearMiss)}`);
  }
  if (reports.length > 1) lines.push("", `All skills: ${passLine(summary)}`);
  const input = reports.reduce((sum, report) => sum + report.usage.input, 0);
  const output = reports.reduce((sum, report) => sum + report.usage.output, 0);
  lines.push(
    `Tokens: ${(input + output).toLocaleString("en-US")} (${input.toLocaleString("en-US")} input, ${output.toLocaleString("en-US")} output)`,
  );
  return lines.join("\n");
}

/** The table of a set of queries: RESULT, TRIGGERED (runs that loaded the skill), SHOULD, QUERY. */
export function queryLines(results: readonly TriggerResult[], color: Colors): string[] {
  const rows = results.map((result) => ({
    result: result.pass ? "PASS" : result.runs === 0 ? "ERROR" : "FAIL",
    triggered: `${result.triggers}/${result.runs}` + (result.errors > 0 ? ` (${result.errors} failed)` : ""),
    should: result.shouldTrigger ? "yes" : "no",
    query: oneLine(result.query),
  }));
  const resultWidth = Math.max("RESULT".length, ...rows.map((row) => row.result.length));
  const triggeredWidth = Math.max("TRIGGERED".length, ...rows.map((row) => row.triggered.length));
  const line = (cells: [string, string, string, string]) =>
    `${cells[0].padEnd(resultWidth)}  ${cells[1].padEnd(triggeredWidth)}  ${cells[2].padEnd(6)}  ${cells[3]}`;
  return [
    color.bold(line(["RESULT", "TRIGGERED", "SHOULD", "QUERY"])),
    ...rows.map((row) => {
      const paint = row.result === "PASS" ? color.green : color.red;
      return line([row.result, row.triggered, row.should, row.query]).replace(row.result, paint(row.result));
    }),
  ];
}

/** `4/5 passed (80%)`. */
export function passLine(count: PassCount): string {
  const percent = count.passRate * 100;
  return `${count.passed}/${count.total} passed (${Number.isInteger(percent) ? percent : percent.toFixed(1)}%)`;
}

// A query on one line of the table, at most 100 characters, control characters shown as escapes.
function oneLine(query: string): string {
  const flat = printable(query.replace(/\s+/g, " ").trim());
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
