import type { PassCountJson, TriggerJsonReport } from "../eval/trigger-report.js";
import { TRIGGER_THRESHOLD } from "../eval/trigger-score.js";
import { plural } from "../plural.js";
import { htmlPage, type ReportProvenance } from "./html-page.js";
import { failHeadline, html, percent } from "./html-text.js";
import { amountBar, rateAxis, rateBar } from "./svg-bars.js";

type SkillEntry = TriggerJsonReport["skills"][number];
type QueryEntry = SkillEntry["queries"][number];

/**
 * The page of `skillset eval --html` for trigger evals: how many queries fail first, then per
 * skill the trigger rate of every query as a bar against the threshold, should-trigger queries
 * and near misses apart, the failing ones first.
 */
export function triggerEvalPage(report: TriggerJsonReport, provenance: ReportProvenance): string {
  const { summary } = report;
  const should = sumCounts(report.skills.map((skill) => skill.should_trigger));
  const nearMiss = sumCounts(report.skills.map((skill) => skill.near_miss));
  const runs = Math.max(0, ...report.skills.flatMap((skill) => skill.queries.map((query) => query.runs)));
  return htmlPage({
    kind: "skillset eval · trigger evals",
    headline: failHeadline(summary.total - summary.passed, summary.total, "query", "queries"),
    lede: `${plural(report.skills.length, "skill")} measured, ${plural(runs, "run")} per query; a query passes when its trigger rate is on the right side of ${TRIGGER_THRESHOLD}.`,
    stats: [
      {
        value: percent(summary.pass_rate),
        label: "of queries pass",
        tone: summary.passed === summary.total ? "good" : "bad",
      },
      { value: `${should.passed}/${should.total}`, label: "should trigger, pass" },
      { value: `${nearMiss.passed}/${nearMiss.total}`, label: "near misses, pass" },
    ],
    body: [
      ...(report.skills.length > 1 ? [skillsOverview(report.skills)] : []),
      ...report.skills.map(skillSection),
    ].join("\n"),
    provenance,
  });
}

function sumCounts(counts: readonly PassCountJson[]): { passed: number; total: number } {
  return counts.reduce((sum, entry) => ({ passed: sum.passed + entry.passed, total: sum.total + entry.total }), {
    passed: 0,
    total: 0,
  });
}

// With several skills, one row each, the weakest first, before their sections.
function skillsOverview(skills: readonly SkillEntry[]): string {
  const rows = skills
    .map((skill, index) => ({ skill, index, all: sumCounts([skill.should_trigger, skill.near_miss]) }))
    .sort((a, b) => a.all.passed / a.all.total - b.all.passed / b.all.total || a.index - b.index)
    .map(({ skill, index, all }) => {
      const rate = all.total === 0 ? 1 : all.passed / all.total;
      return `<tr><td><a href="#skill-${index + 1}">${html(skill.skill)}</a></td><td class="num">${all.passed}/${all.total}</td><td class="chart">${amountBar(rate, 1, all.passed === all.total ? "pass" : "fail")}</td><td class="num">${skill.should_trigger.passed}/${skill.should_trigger.total}</td><td class="num">${skill.near_miss.passed}/${skill.near_miss.total}</td></tr>`;
    });
  return [
    '<section aria-labelledby="skills-overview">',
    '<h2 id="skills-overview">Skills</h2>',
    '<table class="skills"><thead><tr><th>Skill</th><th class="num">Queries passed</th><th class="chart">Pass rate</th><th class="num">Should trigger</th><th class="num">Near misses</th></tr></thead>',
    `<tbody>${rows.join("")}</tbody></table>`,
    "</section>",
  ].join("\n");
}

function skillSection(skill: SkillEntry, index: number): string {
  const all = sumCounts([skill.should_trigger, skill.near_miss]);
  const id = `skill-${index + 1}`;
  return [
    `<section class="skill" aria-labelledby="${id}">`,
    `<h2 id="${id}">${html(skill.skill)}</h2>`,
    `<p class="note">${html(failHeadline(all.total - all.passed, all.total, "query", "queries"))} · <code>${html(skill.file)}</code></p>`,
    queryTable(
      "Should trigger",
      "should",
      skill.queries.filter((query) => query.should_trigger),
      skill.should_trigger,
    ),
    queryTable(
      "Near misses (should not trigger)",
      "near-miss",
      skill.queries.filter((query) => !query.should_trigger),
      skill.near_miss,
    ),
    "</section>",
  ].join("\n");
}

// One kind of query: failing first, each with its runs and its rate drawn against the threshold.
function queryTable(title: string, kind: string, queries: readonly QueryEntry[], passed: PassCountJson): string {
  const heading = `<h3>${html(title)}: ${passed.passed} of ${passed.total} pass</h3>`;
  if (queries.length === 0) return `${heading}\n<p class="note">None in the eval file.</p>`;
  const ordered = [...queries.filter((query) => !query.pass), ...queries.filter((query) => query.pass)];
  const rows = ordered.map((query) => {
    const result = query.pass
      ? '<span class="result good">✓ pass</span>'
      : `<span class="result bad">✗ ${query.runs === 0 ? "error" : "fail"}</span>`;
    const rate = query.trigger_rate === null ? "no run completed" : query.trigger_rate.toFixed(2);
    return `<tr class="${query.pass ? "pass" : "fail"}"><td>${result}</td><td class="text">${html(query.query)}</td><td class="num">${query.triggers}/${query.runs} <span class="note">(${rate})</span></td><td class="chart">${rateBar(query.trigger_rate, query.pass ? "pass" : "fail", TRIGGER_THRESHOLD)}</td></tr>`;
  });
  return [
    heading,
    `<table class="queries ${kind}">`,
    `<thead><tr><th class="result">Result</th><th>Query</th><th class="num">Runs that loaded it</th><th class="chart"><span class="visually-hidden">Trigger rate, with the threshold</span>${rateAxis(TRIGGER_THRESHOLD)}</th></tr></thead>`,
    `<tbody>${rows.join("")}</tbody>`,
    "</table>",
  ].join("\n");
}
