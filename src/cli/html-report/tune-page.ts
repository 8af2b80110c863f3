import type { TuneJsonReport } from "../eval/tune-report.js";
import { plural } from "../plural.js";
import { htmlPage, type ReportProvenance } from "./html-page.js";
import { html, percent } from "./html-text.js";
import { lineChart } from "./svg-line-chart.js";
import { wordDiff } from "./word-diff.js";

type Iteration = TuneJsonReport["iterations"][number];

/**
 * The page of `skillset tune --html`: which description won first, then the train and validation
 * pass rates of every iteration as a line chart with the chosen one marked, what changed between
 * the first description and the chosen one, and every description measured.
 */
export function tunePage(report: TuneJsonReport, provenance: ReportProvenance): string {
  const first = report.iterations[0]!;
  const chosen = report.iterations.find((step) => step.iteration === report.best.iteration) ?? first;
  const headline =
    chosen.iteration === 0
      ? `The current description did best (validation ${percent(first.validation.pass_rate)})`
      : `Iteration ${chosen.iteration} did best: validation ${percent(chosen.validation.pass_rate)}, was ${percent(first.validation.pass_rate)}`;
  const measured = report.iterations.length - 1;
  return htmlPage({
    kind: `skillset tune · ${report.skill}`,
    headline,
    lede: `${plural(measured, "new description")} measured${report.rejected.length ? `, ${plural(report.rejected.length, "proposal")} refused` : ""}; the winner is chosen by validation pass rate, which the proposals never saw. ${written(report, chosen)}`,
    stats: [
      {
        value: percent(chosen.validation.pass_rate),
        label: "validation pass rate",
        ...(chosen.validation.pass_rate > first.validation.pass_rate ? { tone: "good" as const } : {}),
      },
      { value: percent(chosen.train.pass_rate), label: "train pass rate" },
      {
        value: `${report.split.train.length} + ${report.split.validation.length}`,
        label: "train + validation queries",
      },
    ],
    body: [chartSection(report, chosen), diffSection(first, chosen), iterationsSection(report), refusedSection(report)]
      .filter(Boolean)
      .join("\n"),
    provenance,
  });
}

function written(report: TuneJsonReport, chosen: Iteration): string {
  if (report.written) return "It was written into SKILL.md.";
  return chosen.iteration === 0 ? "Nothing was written." : "It was not written (tune --write writes it).";
}

function chartSection(report: TuneJsonReport, chosen: Iteration): string {
  const steps = report.iterations.map((step) => (step.iteration === 0 ? "0 (current)" : String(step.iteration)));
  const chosenIndex = report.iterations.indexOf(chosen);
  const label = `Pass rates by iteration. ${report.iterations
    .map(
      (step, index) =>
        `${steps[index]}: train ${percent(step.train.pass_rate)}, validation ${percent(step.validation.pass_rate)}`,
    )
    .join("; ")}. Chosen: ${steps[chosenIndex]}.`;
  return [
    '<section aria-labelledby="rates">',
    '<h2 id="rates">Pass rates by iteration</h2>',
    '<ul class="legend"><li><span class="swatch"></span>train</li><li><span class="swatch validation"></span>validation (dashed)</li><li>ring: the chosen description</li></ul>',
    "<figure>",
    lineChart({
      steps,
      series: [
        { name: "train", className: "train", values: report.iterations.map((step) => step.train.pass_rate) },
        {
          name: "validation",
          className: "validation",
          values: report.iterations.map((step) => step.validation.pass_rate),
        },
      ],
      marked: { index: chosenIndex, label: "chosen" },
      label,
    }),
    `<figcaption>Iterations that were refused before being measured are not drawn; the table below lists every measured one.</figcaption>`,
    "</figure>",
    "</section>",
  ].join("\n");
}

function diffSection(first: Iteration, chosen: Iteration): string {
  const heading = '<section aria-labelledby="diff">\n<h2 id="diff">What changed</h2>';
  if (chosen.iteration === 0)
    return `${heading}\n<p>Nothing: no iteration did better on validation than the current description.</p>\n<div class="description">${html(first.description)}</div>\n</section>`;
  const parts = wordDiff(first.description, chosen.description).map((part) =>
    part.kind === "same"
      ? html(part.text)
      : part.kind === "removed"
        ? `<del>${html(part.text)}</del>`
        : `<ins>${html(part.text)}</ins>`,
  );
  return [
    heading,
    `<p class="note">From the current description to iteration ${chosen.iteration}: <del>removed</del> and <ins>added</ins> words.</p>`,
    `<div class="description diff">${parts.join("")}</div>`,
    "</section>",
  ].join("\n");
}

function iterationsSection(report: TuneJsonReport): string {
  const rows = report.iterations.map((step) => {
    const chosen = step.iteration === report.best.iteration;
    return `<tr${chosen ? ' class="chosen"' : ""}><td class="num">${step.iteration === 0 ? "0 (current)" : step.iteration}${chosen ? ' <span class="badge good">chosen</span>' : ""}</td><td class="num">${step.train.passed}/${step.train.total} (${percent(step.train.pass_rate)})</td><td class="num">${step.validation.passed}/${step.validation.total} (${percent(step.validation.pass_rate)})</td><td class="text">${html(step.description)}</td></tr>`;
  });
  return [
    '<section aria-labelledby="iterations">',
    '<h2 id="iterations">Every description measured</h2>',
    '<table class="iterations"><thead><tr><th class="num">Iteration</th><th class="num">Train</th><th class="num">Validation</th><th>Description</th></tr></thead>',
    `<tbody>${rows.join("")}</tbody></table>`,
    `<p class="note">Split of <code>${html(report.file)}</code>: ${plural(report.split.train.length, "query", "queries")} for train (${report.split.train.filter((entry) => entry.should_trigger).length} should trigger), ${plural(report.split.validation.length, "query", "queries")} for validation (${report.split.validation.filter((entry) => entry.should_trigger).length} should trigger).</p>`,
    "</section>",
  ].join("\n");
}

function refusedSection(report: TuneJsonReport): string {
  if (report.rejected.length === 0) return "";
  const items = report.rejected.map(
    (refused) =>
      `<li><strong>Iteration ${refused.iteration}</strong>: ${html(refused.problems.join("; "))}<div class="description">${html(refused.description)}</div></li>`,
  );
  return `<section aria-labelledby="refused">\n<h2 id="refused">Refused proposals</h2>\n<p class="note">The validator refused these twice, so they were not measured.</p>\n<ul>${items.join("")}</ul>\n</section>`;
}
