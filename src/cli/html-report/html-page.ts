import { createHash } from "node:crypto";
import { html } from "./html-text.js";
import { REPORT_STYLE } from "./report-style.js";

/** What produced a report: the command line, when, and with which model. */
export interface ReportProvenance {
  /** The command as a user would type it again. */
  command: string;
  /** ISO 8601. */
  date: string;
  /** `provider:model`, for the commands that ask one. */
  model?: string;
}

/** A figure at the top of the page: `71.4%` over `pass rate`. */
export interface PageStat {
  value: string;
  label: string;
  tone?: "good" | "bad" | "warn";
}

/** A report page; text fields are plain text (escaped here), `body` is markup built from escaped text. */
export interface PageContent {
  /** What kind of report, above the headline: `skillset eval · trigger evals`. */
  kind: string;
  /** The answer, as the page's only h1: `3 of 12 queries fail`. */
  headline: string;
  /** One line under the headline. */
  lede?: string;
  stats?: readonly PageStat[];
  body: string;
  provenance: ReportProvenance;
}

// Nothing may load from anywhere: no scripts at all, images only inline, the one stylesheet by its hash.
function securityPolicy(style: string): string {
  const hash = createHash("sha256").update(style).digest("base64");
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** The whole self-contained document: one inline stylesheet, no script, nothing fetched. */
export function htmlPage(content: PageContent): string {
  const title = `${content.kind}: ${content.headline}`;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${securityPolicy(REPORT_STYLE)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="skillset">',
    `<title>${html(title)}</title>`,
    `<style>${REPORT_STYLE}</style>`,
    "</head>",
    "<body>",
    '<header class="report-head">',
    `<p class="kind">${html(content.kind)}</p>`,
    `<h1>${html(content.headline)}</h1>`,
    content.lede === undefined ? "" : `<p class="lede">${html(content.lede)}</p>`,
    content.stats?.length ? statList(content.stats) : "",
    provenanceList(content.provenance),
    "</header>",
    "<main>",
    content.body,
    "</main>",
    "<footer><p>Written by skillset. This page is a view of the same report <code>--json</code> prints.</p></footer>",
    "</body>",
    "</html>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

function statList(stats: readonly PageStat[]): string {
  const items = stats.map(
    (stat) =>
      `<li><span class="value${stat.tone ? ` ${stat.tone}` : ""}">${html(stat.value)}</span><span class="label">${html(stat.label)}</span></li>`,
  );
  return `<ul class="stats">${items.join("")}</ul>`;
}

function provenanceList(provenance: ReportProvenance): string {
  const rows = [
    ...(provenance.model === undefined ? [] : [["Model", `<code>${html(provenance.model)}</code>`]]),
    ["Date", `<time datetime="${html(provenance.date)}">${html(readableDate(provenance.date))}</time>`],
    ["Command", `<code>${html(provenance.command)}</code>`],
  ];
  return `<dl class="provenance">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("")}</dl>`;
}

// `2026-11-20T14:03:07.123Z` as `2026-11-20 14:03 UTC`; anything else as given.
function readableDate(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})[^Z]*Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
