import { html, percent } from "./html-text.js";

/** One line of a chart: a share (0 to 1) per x position. */
export interface LineSeries {
  /** Shown in the legend and each point's tooltip. */
  name: string;
  /** The CSS class of its line and points: `train`, `validation`. */
  className: string;
  values: readonly number[];
}

/** A line chart of shares over a few steps, one point marked. */
export interface LineChart {
  /** The x labels, one per step. */
  steps: readonly string[];
  series: readonly LineSeries[];
  /** The step to mark, and what to call it. */
  marked?: { index: number; label: string };
  /** The text alternative: what the chart shows, in words. */
  label: string;
}

// About the size it is drawn at on a page, so its text is as large as the page's small print.
const WIDTH = 900;
const HEIGHT = 260;
const LEFT = 44;
const RIGHT = 24;
const TOP = 18;
const BOTTOM = 36;

const fixed = (value: number) => String(Math.round(value * 10) / 10);

/** The chart as inline SVG: gridlines at every quarter, a line and a point per series and step. */
export function lineChart(chart: LineChart): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) =>
    LEFT + (chart.steps.length === 1 ? plotWidth / 2 : (index / (chart.steps.length - 1)) * plotWidth);
  const y = (share: number) => TOP + (1 - share) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (share) =>
      `<line class="gridline" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${fixed(y(share))}" y2="${fixed(y(share))}"/>` +
      `<text x="${LEFT - 8}" y="${fixed(y(share) + 4)}" text-anchor="end">${share * 100}%</text>`,
  );
  const ticks = chart.steps.map(
    (step, index) =>
      `<text x="${fixed(x(index))}" y="${HEIGHT - BOTTOM + 18}" text-anchor="middle">${html(step)}</text>`,
  );
  const lines = chart.series.map((series) => {
    const points = series.values.map((value, index) => `${fixed(x(index))},${fixed(y(value))}`).join(" ");
    const dots = series.values.map(
      (value, index) =>
        `<circle class="point ${series.className}" cx="${fixed(x(index))}" cy="${fixed(y(value))}" r="4.5"><title>${html(`${series.name}, ${chart.steps[index]}: ${percent(value)}`)}</title></circle>`,
    );
    return `<g class="line ${series.className}"><polyline class="series ${series.className}" points="${points}"/>${dots.join("")}</g>`;
  });
  return [
    `<svg class="line-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${html(chart.label)}">`,
    ...grid,
    `<text x="${fixed(LEFT + plotWidth / 2)}" y="${HEIGHT - 4}" text-anchor="middle">iteration</text>`,
    ...ticks,
    ...lines,
    chart.marked ? markedPoint(chart, x, y) : "",
    "</svg>",
  ].join("");
}

// A ring around the marked step's points, with its label above them.
function markedPoint(chart: LineChart, x: (index: number) => number, y: (share: number) => number): string {
  const { index, label } = chart.marked!;
  const values = chart.series.map((series) => series.values[index] ?? 0);
  const top = y(Math.max(...values));
  const bottom = y(Math.min(...values));
  const cx = fixed(x(index));
  return (
    `<g class="chosen"><rect class="chosen-ring" x="${fixed(x(index) - 10)}" y="${fixed(top - 10)}" width="20" height="${fixed(bottom - top + 20)}" rx="10"/>` +
    `<text class="chosen-label" x="${cx}" y="${fixed(Math.max(top - 15, 10))}" text-anchor="middle">${html(label)}</text></g>`
  );
}
