/** One row of a table: cells by column name. */
export type Row = Record<string, unknown>;

/** Whether a cell is empty: missing, null or only whitespace. */
export function isBlank(cell: unknown): boolean {
  return cell === undefined || cell === null || String(cell).trim() === "";
}
