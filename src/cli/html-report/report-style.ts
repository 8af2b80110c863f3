// The one stylesheet of every report page: system fonts only (nothing is fetched), restrained
// colours whose contrast on white passes WCAG AA (text 4.5:1, bars and lines 3:1), and a print
// layout that keeps the bars' colours and breaks between sections, not inside tables' rows.
export const REPORT_STYLE = `
:root { --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --track: #eaeef2;
  --pass: #1a7f37; --fail: #cf222e; --bar: #4a6785; --warn: #9a6700; --accent: #0969da; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0 auto; max-width: 64rem; padding: 2rem 1.5rem 3rem; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.88em; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0.2rem 0 0.4rem; letter-spacing: -0.01em; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 0.6rem; padding-top: 1.2rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
p { margin: 0.4rem 0; }
.kind { margin: 0; color: var(--muted); font-size: 0.85rem; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; }
.lede { font-size: 1.05rem; color: var(--muted); margin: 0 0 1rem; }
.note { color: var(--muted); font-size: 0.9rem; }
.stats { display: flex; flex-wrap: wrap; gap: 0.75rem; list-style: none; padding: 0; margin: 1rem 0; }
.stats li { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.9rem; min-width: 8.5rem; background: var(--soft); }
.stats .value { display: block; font-size: 1.35rem; font-weight: 650; }
.stats .label { color: var(--muted); font-size: 0.82rem; }
.good { color: var(--pass); } .bad { color: var(--fail); } .warn { color: var(--warn); }
.provenance { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.6rem 0 0;
  font-size: 0.85rem; color: var(--muted); }
.provenance dt { font-weight: 600; } .provenance dd { margin: 0; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
th { font-size: 0.8rem; color: var(--muted); font-weight: 600; border-bottom-color: var(--ink); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.chart, th.chart { width: 13rem; padding-top: 0.45rem; padding-bottom: 0; }
td.text { overflow-wrap: anywhere; }
table.queries { table-layout: fixed; } table.queries th.result { width: 5.5rem; } table.queries th.num { width: 10.5rem; }
table.queries th.chart { width: 13.5rem; }
.name { white-space: nowrap; }
table.cases th.chart, table.cases td.chart { width: 8.5rem; } table.cases td.chart svg { width: 8rem; }
svg { display: block; overflow: visible; }
svg text { font: 11px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; fill: var(--muted); }
.result { font-weight: 650; white-space: nowrap; }
.track { fill: var(--track); }
.bar { fill: var(--bar); } .bar.pass { fill: var(--pass); } .bar.fail { fill: var(--fail); } .bar.outside { fill: var(--warn); }
.threshold, .budget { stroke: var(--ink); stroke-width: 1.5; stroke-dasharray: 3 2; }
.series { fill: none; stroke-width: 2.5; } .series.train { stroke: var(--bar); } .series.validation { stroke: var(--accent); stroke-dasharray: 6 3; }
.point.train { fill: var(--bar); } .point.validation { fill: var(--accent); }
.chosen-ring { fill: none; stroke: var(--pass); stroke-width: 2.5; } svg text.chosen-label { fill: var(--pass); font-weight: 650; }
.gridline { stroke: var(--line); stroke-width: 1; } .axis text { fill: var(--muted); }
figure { margin: 0.8rem 0 1.2rem; } figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 0.3rem; }
.legend { display: flex; flex-wrap: wrap; gap: 1.2rem; font-size: 0.85rem; color: var(--muted); margin: 0.3rem 0; padding: 0; list-style: none; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.35rem; vertical-align: -0.1rem; background: var(--bar); }
.swatch.validation { background: var(--accent); } .swatch.pass { background: var(--pass); } .swatch.fail { background: var(--fail); } .swatch.outside { background: var(--warn); }
.finding { border-left: 4px solid var(--line); padding: 0.4rem 0.9rem; margin: 0.6rem 0; background: var(--soft); break-inside: avoid; }
.finding.error { border-left-color: var(--fail); } .finding.warning { border-left-color: var(--warn); }
.finding h4 { margin: 0; font-size: 0.95rem; } .finding p { margin: 0.2rem 0; }
.finding .fix::before { content: "Fix: "; font-weight: 650; color: var(--ink); }
.description { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.9rem; margin: 0.4rem 0; overflow-wrap: anywhere; }
del { background: #ffebe9; color: #82071e; } ins { background: #dafbe1; color: #116329; text-decoration: underline; }
tr.chosen td { background: #eef8f0; }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 650; padding: 0 0.4rem; border-radius: 999px; border: 1px solid currentColor; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.8rem; }
@page { margin: 1.5cm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  h2 { break-after: avoid; } tr, figure, .stats { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;
