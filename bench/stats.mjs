// Small statistics and formatting helpers shared by every benchmark table.

/** The q-quantile (0..1) of `samples`, linearly interpolated between ranks. */
export function quantile(samples, q) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export function median(samples) {
  return quantile(samples, 0.5);
}

/** Run count, median, p90, min and max of timing samples in ms. */
export function summarize(samples) {
  return {
    runs: samples.length,
    median: median(samples),
    p90: quantile(samples, 0.9),
    min: Math.min(...samples),
    max: Math.max(...samples),
  };
}

/** Milliseconds with about three significant digits, so sub-ms re-scans stay readable. */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** A ratio such as `7.3x`. */
export function formatRatio(ratio) {
  if (!Number.isFinite(ratio)) return "n/a";
  if (ratio >= 100) return `${Math.round(ratio).toLocaleString("en-US")}x`;
  if (ratio >= 10) return `${ratio.toFixed(1)}x`;
  return `${ratio.toFixed(2)}x`;
}

/**
 * A Markdown table of `rows` (plain objects); the first row's keys are the headers, in order.
 * Columns whose every cell is numeric are right-aligned.
 */
export function formatTable(rows) {
  if (rows.length === 0) return "(no rows)";
  const headers = Object.keys(rows[0]);
  const cells = rows.map((row) => headers.map((header) => String(row[header] ?? "")));
  const numeric = headers.map((_, column) => cells.every((line) => /^[\d.,]+(x|%)?$|^n\/a$/.test(line[column])));
  const widths = headers.map((header, column) =>
    Math.max(header.length, 3, ...cells.map((line) => line[column].length)),
  );
  const pad = (text, column) => (numeric[column] ? text.padStart(widths[column]) : text.padEnd(widths[column]));
  const line = (values) => `| ${values.map(pad).join(" | ")} |`;
  const rule = `| ${widths.map((width, column) => (numeric[column] ? "-".repeat(width - 1) + ":" : "-".repeat(width))).join(" | ")} |`;
  return [line(headers), rule, ...cells.map(line)].join("\n");
}
