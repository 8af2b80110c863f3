import { count, html } from "./html-text.js";

// A bar cell's drawing box; the table cell around it is as wide.
const BAR_WIDTH = 200;
const BAR_HEIGHT = 18;

const fixed = (value: number) => String(Math.round(value * 10) / 10);

/**
 * One row's trigger rate as a bar (0 to 1) on its track, with the threshold drawn across it. The
 * row's text says the rate, so the drawing is hidden from screen readers. A rate of `null` (every
 * run failed) draws an empty bar.
 */
export function rateBar(rate: number | null, tone: "pass" | "fail", threshold: number): string {
  const x = fixed(threshold * BAR_WIDTH);
  return [
    `<svg class="rate" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" aria-hidden="true" focusable="false">`,
    `<rect class="track" x="0" y="4" width="${BAR_WIDTH}" height="10" rx="2"/>`,
    `<rect class="bar ${tone}" x="0" y="4" width="${fixed((rate ?? 0) * BAR_WIDTH)}" height="10" rx="2"/>`,
    `<line class="threshold" x1="${x}" x2="${x}" y1="0" y2="${BAR_HEIGHT}"/>`,
    "</svg>",
  ].join("");
}

/** The scale over a column of rate bars: 0, the threshold and 1, at the bars' positions. */
export function rateAxis(threshold: number): string {
  const x = fixed(threshold * BAR_WIDTH);
  return [
    `<svg class="axis" width="${BAR_WIDTH}" height="14" viewBox="0 0 ${BAR_WIDTH} 14" aria-hidden="true" focusable="false">`,
    `<text x="0" y="11">0</text>`,
    `<text x="${x}" y="11" text-anchor="middle">${threshold} threshold</text>`,
    `<text x="${BAR_WIDTH}" y="11" text-anchor="end">1</text>`,
    "</svg>",
  ].join("");
}

/** A share of `max` as a bar, for one table row (catalog tokens, a case's pass rate). */
export function amountBar(value: number, max: number, tone: "pass" | "fail" | "outside" | "plain"): string {
  const width = max <= 0 ? 0 : (Math.min(value, max) / max) * BAR_WIDTH;
  return [
    `<svg class="amount" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" preserveAspectRatio="none" aria-hidden="true" focusable="false">`,
    `<rect class="track" x="0" y="4" width="${BAR_WIDTH}" height="10" rx="2"/>`,
    `<rect class="bar${tone === "plain" ? "" : ` ${tone}`}" x="0" y="4" width="${fixed(width)}" height="10" rx="2"/>`,
    "</svg>",
  ].join("");
}

/** One skill's share of the catalog strip. */
export interface StripSegment {
  name: string;
  tokens: number;
  /** Shown less than whole under the budget. */
  outside: boolean;
}

const STRIP_WIDTH = 900;
const STRIP_HEIGHT = 64;

/**
 * Every skill's whole catalog line laid end to end, costliest first, against the budget line:
 * how much of the budget the library needs. The segments of the skills the budget shows less than
 * whole are drawn in the warning colour; `label` is the drawing's text alternative.
 */
export function budgetStrip(segments: readonly StripSegment[], budget: number | false, label: string): string {
  const total = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const scale = Math.max(total, budget === false ? 0 : budget, 1) * 1.04;
  const toX = (tokens: number) => (tokens / scale) * STRIP_WIDTH;
  const parts: string[] = [];
  let at = 0;
  for (const segment of segments) {
    if (segment.tokens === 0) continue;
    parts.push(
      `<rect class="segment bar${segment.outside ? " outside" : ""}" x="${fixed(toX(at))}" y="18" width="${fixed(Math.max(toX(segment.tokens) - 1, 0.5))}" height="22"><title>${html(segment.name)}: ${count(segment.tokens)} tokens</title></rect>`,
    );
    at += segment.tokens;
  }
  const budgetLine =
    budget === false
      ? ""
      : `<line class="budget" x1="${fixed(toX(budget))}" x2="${fixed(toX(budget))}" y1="8" y2="50"/>` +
        `<text x="${fixed(toX(budget))}" y="62" text-anchor="middle">budget ${count(budget)}</text>`;
  return [
    `<svg class="strip" viewBox="0 0 ${STRIP_WIDTH} ${STRIP_HEIGHT}" width="100%" role="img" aria-label="${html(label)}">`,
    `<rect class="track" x="0" y="18" width="${STRIP_WIDTH}" height="22"/>`,
    ...parts,
    `<text x="0" y="12">0</text>`,
    `<text x="${fixed(toX(total))}" y="12" text-anchor="${toX(total) > STRIP_WIDTH - 60 ? "end" : "middle"}">all whole lines ${count(total)}</text>`,
    budgetLine,
    "</svg>",
  ].join("");
}
