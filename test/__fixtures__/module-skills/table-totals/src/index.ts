// A skill module for tests of `metadata.entrypoint`: TypeScript with TSDoc on each export.
import type { Row } from "./row.js";
import { isBlank } from "./row.js";

/** Options of {@link total}. */
export interface TotalOptions {
  skipBlank?: boolean;
}

/**
 * Totals a column of rows. Cells that are not numbers count as zero.
 * @param rows - the rows, each a record of cells
 */
export function total(rows: Row[], column: string, options: TotalOptions = {}): number {
  return rows.reduce((sum, row) => {
    const cell = row[column];
    if (options.skipBlank && isBlank(cell)) return sum;
    return sum + (Number(cell) || 0);
  }, 0);
}

/** Counts the rows whose cell in `column` is not blank. */
export const countFilled = (rows: Row[], column: string): number => rows.filter((row) => !isBlank(row[column])).length;

/** Most rows a call should pass; more are cut. */
export const MAX_ROWS = 10_000;

export { isBlank };
