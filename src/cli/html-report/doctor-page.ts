import type { DoctorFinding, DoctorSeverity } from "../../core/doctor/doctor-finding.js";
import type { DoctorJsonReport } from "../doctor-json-report.js";
import { plural } from "../plural.js";
import { htmlPage, type ReportProvenance } from "./html-page.js";
import { count, html, percent } from "./html-text.js";
import { amountBar, budgetStrip } from "./svg-bars.js";

const GROUPS: ReadonlyArray<[DoctorSeverity, string]> = [
  ["error", "Errors"],
  ["warning", "Warnings"],
  ["info", "Info"],
];

/**
 * The page of `skillset doctor --html`: the findings' counts first, then the findings grouped by
 * severity with their fixes, the rival pairs with their overlap, and each skill's catalog cost as
 * a sorted bar chart with the budget and the skills it leaves less than whole.
 */
export function doctorPage(report: DoctorJsonReport, provenance: ReportProvenance): string {
  const { summary, catalog } = report;
  const headline =
    report.findings.length === 0
      ? `No findings in ${plural(report.skills, "skill")}`
      : `${plural(summary.error, "error")}, ${plural(summary.warning, "warning")}, ${summary.info} info in ${plural(report.skills, "skill")}`;
  return htmlPage({
    kind: "skillset doctor",
    headline,
    lede:
      report.failOn === "none"
        ? "--fail-on none: no finding fails the run."
        : report.ok
          ? `Nothing at --fail-on ${report.failOn} or above: exit code 0.`
          : `Findings at --fail-on ${report.failOn} or above: exit code 1.`,
    stats: [
      { value: String(summary.error), label: "errors", ...(summary.error > 0 ? { tone: "bad" as const } : {}) },
      { value: String(summary.warning), label: "warnings", ...(summary.warning > 0 ? { tone: "warn" as const } : {}) },
      { value: String(summary.info), label: "info" },
      catalog.budget === false
        ? { value: count(catalog.tokens), label: "catalog tokens, no budget" }
        : { value: `${count(catalog.tokens)} / ${count(catalog.budget)}`, label: "catalog tokens / budget" },
    ],
    body: [
      findingsSection(report.findings),
      rivalsSection(report.findings),
      catalogSection(report),
      examinedSection(report),
    ]
      .filter(Boolean)
      .join("\n"),
    provenance,
  });
}

function findingsSection(findings: readonly DoctorFinding[]): string {
  if (findings.length === 0)
    return '<section aria-labelledby="findings">\n<h2 id="findings">Findings</h2>\n<p>None: nothing hurts this library.</p>\n</section>';
  const groups = GROUPS.map(([severity, title]) => {
    const mine = findings.filter((finding) => finding.severity === severity);
    if (mine.length === 0) return "";
    return [
      `<section class="severity ${severity}" aria-labelledby="findings-${severity}">`,
      `<h2 id="findings-${severity}">${title} (${mine.length})</h2>`,
      ...mine.map(findingBlock),
      "</section>",
    ].join("\n");
  });
  return groups.filter(Boolean).join("\n");
}

function findingBlock(finding: DoctorFinding): string {
  return [
    `<article class="finding ${finding.severity}">`,
    `<h4><code>${html(finding.code)}</code> · ${html(finding.skill)}</h4>`,
    `<p>${html(finding.message)}</p>`,
    `<p class="fix">${html(finding.fix)}</p>`,
    `<p class="note">File: <code>${html(finding.file)}</code></p>`,
    "</article>",
  ].join("");
}

// The rival pairs again, as a table: which two, and how much they overlap, the most first.
function rivalsSection(findings: readonly DoctorFinding[]): string {
  const rivals = findings
    .filter((finding) => finding.code === "rival-skills")
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  if (rivals.length === 0) return "";
  const rows = rivals.map(
    (rival) =>
      `<tr><td>${html(rival.skill)}</td><td>${html(rival.related ?? "")}</td><td class="num">${rival.value === undefined ? "" : percent(rival.value)}</td><td class="chart">${amountBar(rival.value ?? 0, 1, "outside")}</td></tr>`,
  );
  return [
    '<section aria-labelledby="rivals">',
    `<h2 id="rivals">Rival skills (${rivals.length} ${rivals.length === 1 ? "pair" : "pairs"})</h2>`,
    '<table class="rivals"><thead><tr><th>Skill</th><th>Rival</th><th class="num">Overlap</th><th class="chart"><span class="visually-hidden">Overlap, drawn</span></th></tr></thead>',
    `<tbody>${rows.join("")}</tbody></table>`,
    '<p class="note">Overlap: how close the other skill scores to the skill itself when its description is the query (the larger direction); with --embeddings, the similarity of the two descriptions when only that found them.</p>',
    "</section>",
  ].join("\n");
}

function catalogSection(report: DoctorJsonReport): string {
  const { catalog } = report;
  const outside = catalog.skills.filter((skill) => skill.place !== "whole" && skill.place !== "user only");
  const budget = catalog.budget === false ? "with no budget" : `under the budget of ${count(catalog.budget)} tokens`;
  const verdict =
    outside.length === 0
      ? "every skill is shown whole."
      : `${plural(outside.length, "skill")} ${outside.length === 1 ? "is" : "are"} shown less than whole: ${outside.map((skill) => `${html(skill.name)} (${skill.place})`).join(", ")}.`;
  const max = Math.max(1, ...catalog.skills.map((skill) => skill.tokens));
  const rows = catalog.skills.map((skill) => {
    const out = skill.place !== "whole" && skill.place !== "user only";
    return `<tr${out ? ' class="outside"' : ""}><td>${html(skill.name)}</td><td class="num">${count(skill.tokens)}</td><td class="chart">${amountBar(skill.tokens, max, out ? "outside" : "plain")}</td><td${out ? ' class="warn"' : ""}>${skill.place}</td></tr>`;
  });
  const strip = budgetStrip(
    catalog.skills.map((skill) => ({
      name: skill.name,
      tokens: skill.tokens,
      outside: skill.place !== "whole" && skill.place !== "user only",
    })),
    catalog.budget,
    `The skills' whole lines take ${count(catalog.wholeTokens)} tokens; ${catalog.budget === false ? "there is no budget" : `the budget is ${count(catalog.budget)}`}.`,
  );
  return [
    '<section aria-labelledby="catalog">',
    '<h2 id="catalog">Catalog cost</h2>',
    `<p>The catalog every model call carries takes ${count(catalog.tokens)} tokens ${budget}; the skills' whole lines take ${count(catalog.wholeTokens)}: ${verdict}</p>`,
    '<ul class="legend"><li><span class="swatch"></span>shown whole</li><li><span class="swatch outside"></span>shown less than whole (shortened, name only or search only)</li></ul>',
    `<figure>${strip}<figcaption>Every skill's whole catalog line, costliest first, end to end, against the budget.</figcaption></figure>`,
    '<table class="catalog"><thead><tr><th>Skill</th><th class="num">Tokens</th><th class="chart">Whole line</th><th>In the catalog</th></tr></thead>',
    `<tbody>${rows.join("")}</tbody></table>`,
    "</section>",
  ].join("\n");
}

function examinedSection(report: DoctorJsonReport): string {
  const threads = report.threads.examined
    ? `${plural(report.threads.count, "saved chat thread")} read from <code>${html(report.threads.path)}</code>.`
    : `not read: ${html(report.threads.reason)}.`;
  const meaning = report.embeddings.examined
    ? `by meaning too, with <code>${html(report.embeddings.model ?? "")}</code>.`
    : `by words only${report.embeddings.reason ? ` (${html(report.embeddings.reason)})` : ""}.`;
  return [
    '<section aria-labelledby="examined">',
    '<h2 id="examined">What was examined</h2>',
    `<p>Threads: ${threads}<br>Rivals: found ${meaning}</p>`,
    "</section>",
  ].join("\n");
}
