import type { CatalogCostReport } from "../core/doctor/catalog-cost.js";
import type { DoctorReport } from "../core/doctor/diagnose-library.js";
import type { DoctorFinding, DoctorSeverity } from "../core/doctor/doctor-finding.js";
import type { RecordedThreads } from "./chat/recorded-threads.js";

/** Whether rivals were looked for by meaning: `--json`'s `embeddings`, as `threads` says whether threads were read. */
export interface MeaningStatus {
  examined: boolean;
  model?: string;
  reason?: string;
}

/** `--fail-on`'s values. */
export type FailOn = DoctorSeverity | "none";

/** The `--json` report of `skillset doctor`, the object `--html` draws too. */
export interface DoctorJsonReport {
  /** Skills in the catalog. */
  skills: number;
  summary: Record<DoctorSeverity, number>;
  failOn: FailOn;
  /** No finding at `failOn` or above. */
  ok: boolean;
  findings: DoctorFinding[];
  catalog: CatalogCostReport;
  threads: { examined: true; path: string; count: number } | { examined: false; reason: string };
  embeddings: MeaningStatus;
}

/**
 * The report as `--json` prints it: the findings, their counts, the catalog, and what was examined.
 * `ok` is false when a finding is at `--fail-on` or above, or when no skills were found (`empty`).
 */
export function doctorJsonReport(
  report: DoctorReport,
  recorded: RecordedThreads | undefined,
  meaning: MeaningStatus,
  failOn: FailOn,
  failing: number,
  empty = false,
): DoctorJsonReport {
  const threads: DoctorJsonReport["threads"] =
    recorded === undefined
      ? { examined: false, reason: "--no-threads" }
      : "threads" in recorded
        ? { examined: true, path: recorded.path, count: recorded.threads.length }
        : { examined: false, reason: recorded.unavailable };
  return {
    skills: report.skills,
    summary: severityCounts(report.findings),
    failOn,
    ok: failing === 0 && !empty,
    findings: report.findings,
    catalog: report.catalog,
    threads,
    embeddings: meaning,
  };
}

/** How many findings of each severity. */
export function severityCounts(findings: readonly DoctorFinding[]): Record<DoctorSeverity, number> {
  const result = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) result[finding.severity]++;
  return result;
}
