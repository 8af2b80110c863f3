import { writeFileSync } from "node:fs";
import { CliError } from "../cli-error.js";
import type { Terminal } from "../terminal.js";

/** Writes the page `--html FILE` asked for, and says so on stderr. */
export function writeHtmlReport(file: string, page: string, terminal: Terminal): void {
  try {
    writeFileSync(file, page);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError("cannot-create", `Cannot write the HTML report to ${file}: ${reason}`);
  }
  terminal.err(`Wrote the HTML report to ${file}.`);
}
