import { formatDiagnostic } from "../../core/diagnostic.js";
import { scanSources, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { displayFolder, rowName, shorten, shortenStart, skillRows, sourceDiagnostics, type SkillStatus } from "../skill-rows.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset list`. */
export interface ListOptions extends SourceOptions {
  json?: boolean;
}

/** `skillset list [sources...]`: every skill with its status, then the diagnostics. Exit code 0. */
export async function listCommand(paths: string[], options: ListOptions, terminal: Terminal): Promise<number> {
  const snapshot = await scanSources(paths, options, terminal);
  const rows = skillRows(snapshot);
  const general = sourceDiagnostics(snapshot, rows);
  if (options.json) {
    terminal.out(JSON.stringify({ skills: rows, diagnostics: general }, null, 2));
    return 0;
  }
  const { color } = terminal;
  const paint: Record<SkillStatus, (text: string) => string> = { ok: color.green, warning: color.yellow, shadowed: color.dim, skipped: color.red };
  // The path column tells apart rows of the same name (a shadowed skill and its winner).
  const table = rows.map((row) => ({ row, name: rowName(row), folder: displayFolder(row.path) }));
  const nameWidth = Math.min(40, Math.max(4, ...table.map((entry) => entry.name.length)));
  const pathWidth = Math.min(50, Math.max(4, ...table.map((entry) => entry.folder.length)));
  terminal.out(color.bold(`${"NAME".padEnd(nameWidth)}  ${"STATUS".padEnd(8)}  ${"PATH".padEnd(pathWidth)}  DESCRIPTION`));
  for (const { row, name, folder } of table) {
    const status = paint[row.status](row.status.padEnd(8));
    terminal.out(`${shorten(name, nameWidth).padEnd(nameWidth)}  ${status}  ${shortenStart(folder, pathWidth).padEnd(pathWidth)}  ${shorten(row.description ?? "", 60)}`);
  }
  const counts = (status: SkillStatus) => rows.filter((row) => row.status === status).length;
  terminal.out(
    `\n${plural(snapshot.skills.length, "skill")} available (${counts("warning")} with warnings); ${counts("shadowed")} shadowed, ${counts("skipped")} skipped`,
  );
  const diagnostics = [...rows.flatMap((row) => row.diagnostics), ...general];
  if (diagnostics.length > 0) {
    terminal.out(color.bold("\nDiagnostics:"));
    for (const diagnostic of diagnostics) terminal.out(`  ${formatDiagnostic(diagnostic)}`);
  }
  return 0;
}
