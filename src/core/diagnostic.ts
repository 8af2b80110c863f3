import { printable } from "./text/safe-text.js";

/** How serious a diagnostic is: `error` means the skill was skipped, `warning` that it loaded anyway. */
export type DiagnosticSeverity = "error" | "warning" | "info";

/** One problem found in a skill or source. Nothing is dropped silently: every skip has one. */
export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** Stable identifier of the problem, e.g. `"description-missing"`, `"shadowed"`. */
  code: string;
  /** The file the problem is in (usually a `SKILL.md`), as its source names it. */
  file: string;
  /** Human-readable, names the problem; the reference validator's wording where one exists. */
  message: string;
  /** The skill's name, when it is known. */
  skill?: string;
  /** The id of the source the file came from. */
  source?: string;
}

/** `path: severity: message`, the one-line form used in logs and the CLI (control characters escaped). */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  return printable(`${diagnostic.file}: ${diagnostic.severity}: ${diagnostic.message}`);
}
