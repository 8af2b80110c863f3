import { diagnoseLibrary, type DiagnoseLibraryOptions, type DoctorReport } from "../../core/doctor/diagnose-library.js";
import { DOCTOR_SEVERITIES, type DoctorSeverity } from "../../core/doctor/doctor-finding.js";
import { printable } from "../../core/text/safe-text.js";
import { readRecordedThreads, type RecordedThreads } from "../chat/recorded-threads.js";
import { createTextVectors } from "../../core/search/text-vectors.js";
import { CliError } from "../cli-error.js";
import { doctorJsonReport, severityCounts, type MeaningStatus } from "../doctor-json-report.js";
import { doctorPage } from "../html-report/doctor-page.js";
import { reportProvenance } from "../html-report/report-provenance.js";
import { writeHtmlReport } from "../html-report/write-html-report.js";
import { firstLine, openEmbeddings } from "../embeddings-option.js";
import { parseBudget, scanCatalog, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { displayFolder } from "../skill-rows.js";
import type { Terminal } from "../terminal.js";
import { verifySiteSkills } from "../verify-site-skills.js";

/** Options of `skillset doctor`. */
export interface DoctorOptions extends SourceOptions {
  json?: boolean;
  /** `--budget <tokens>` (or `none`): the catalog budget to check the library against. */
  budget?: string;
  /** `--fail-on <severity>`: the least serious finding that makes the exit code 1. */
  failOn?: string;
  /** `--no-threads` makes this false: do not read `skillset chat`'s saved threads. */
  threads?: boolean;
  /** `--embeddings <provider:model>`: find rivals by meaning too. */
  embeddings?: string;
  /** `--html <file>`: also write the report as a self-contained web page there. */
  html?: string;
}

const FAIL_ON = [...DOCTOR_SEVERITIES, "none"] as const;
// Catalog lines shown in the human report, most expensive first; --json has them all.
const COSTLIEST = 10;

/**
 * `skillset doctor [sources...]`: what hurts the library, in one report. Exit code 1 when a
 * finding is at least as serious as `--fail-on` (default `error`), else 0; 2 for a usage error.
 *
 * @throws CliError `no-skills` when the sources hold no skill at all (after writing `--html`).
 */
export async function doctorCommand(paths: string[], options: DoctorOptions, terminal: Terminal): Promise<number> {
  const failOn = (options.failOn ?? "error") as (typeof FAIL_ON)[number];
  if (!FAIL_ON.includes(failOn))
    throw new CliError("usage", `--fail-on must be one of ${FAIL_ON.join(", ")}; got '${options.failOn}'`);
  const budget = parseBudget(options.budget);
  const meaning = await rivalsByMeaning(options.embeddings, terminal);
  const scan = await scanCatalog(paths, options, terminal, true);
  const { sources } = scan;
  const snapshot = await verifySiteSkills(scan.snapshot, sources);
  const recorded: RecordedThreads | undefined = options.threads === false ? undefined : await readRecordedThreads();
  const threads = recorded && "threads" in recorded ? recorded.threads : undefined;
  const report = await diagnoseLibrary(
    { snapshot, sources },
    { budget, ...meaning.options, ...(threads ? { threads } : {}) },
  );
  // A library without skills has nothing to check: a CI job pointed at the wrong folder must not pass.
  const empty = snapshot.skills.length === 0 && snapshot.shadowed.length === 0;
  const failing =
    failOn === "none"
      ? 0
      : report.findings.filter(
          (finding) => DOCTOR_SEVERITIES.indexOf(finding.severity) <= DOCTOR_SEVERITIES.indexOf(failOn),
        ).length;
  const json = doctorJsonReport(report, recorded, meaning.status, failOn, failing, empty);
  if (options.html !== undefined)
    writeHtmlReport(options.html, doctorPage(json, reportProvenance(undefined)), terminal);
  // Whatever --fail-on says: "no findings" about no skills would read as a pass.
  if (empty)
    throw new CliError(
      "no-skills",
      `No skills found in ${sources.map((source) => printable(source.id.replace(/^local:/, ""))).join(", ")}: nothing to check. ` +
        "Give the folder that holds the skills (each skill a folder with a SKILL.md), or --recursive to look deeper.",
    );
  if (options.json) terminal.out(JSON.stringify(json, null, 2));
  else {
    printReport(report, recorded, meaning.status, terminal);
    if (failing > 0) terminal.out(`\n${plural(failing, "finding")} at --fail-on ${failOn} or above: exit code 1`);
  }
  return failing > 0 ? 1 : 0;
}

// The descriptions' vectors go through the cache `search --embeddings` fills (same model, same
// text per skill), so a library is embedded once for both. A provider that fails costs the
// embedding rivals only, with one warning: the rest of the report stands and --fail-on decides.
async function rivalsByMeaning(
  spec: string | undefined,
  terminal: Terminal,
): Promise<{ options: Pick<DiagnoseLibraryOptions, "embed" | "onEmbedError">; status: MeaningStatus }> {
  if (spec === undefined) return { options: {}, status: { examined: false, reason: "no --embeddings" } };
  const { embeddings, cache } = await openEmbeddings(spec, terminal);
  const vectorsOf = createTextVectors((texts) => embeddings.embedDocuments(texts), cache);
  const status: MeaningStatus = { examined: true, model: spec };
  const options: Pick<DiagnoseLibraryOptions, "embed" | "onEmbedError"> = {
    embed: async (texts) => (await vectorsOf(texts)).map((vector) => Array.from(vector)),
    onEmbedError: (error) => {
      status.examined = false;
      status.reason = firstLine(error);
      terminal.err(
        terminal.color.yellow(
          `skillset: --embeddings ${spec} failed (${status.reason}); rivals are found by words only.`,
        ),
      );
    },
  };
  return { options, status };
}

function printReport(
  report: DoctorReport,
  recorded: RecordedThreads | undefined,
  meaning: MeaningStatus,
  terminal: Terminal,
): void {
  const { color } = terminal;
  const paint: Record<DoctorSeverity, (text: string) => string> = {
    error: color.red,
    warning: color.yellow,
    info: color.dim,
  };
  for (const finding of report.findings) {
    terminal.out(
      `${paint[finding.severity](finding.severity.padEnd(7))} ${color.bold(finding.code)}  ${printable(finding.skill)}`,
    );
    terminal.out(`  ${printable(finding.message)}`);
    terminal.out(`  file: ${printable(displayFile(finding.file))}`);
    terminal.out(`  fix: ${printable(finding.fix)}`);
  }
  if (report.findings.length === 0) terminal.out("No findings.");
  const { catalog } = report;
  const count = (value: number) => value.toLocaleString("en-US");
  const budget = catalog.budget === false ? "no budget" : `the budget of ${count(catalog.budget)}`;
  terminal.out(
    color.bold(
      `\nCatalog: ${count(catalog.tokens)} tokens under ${budget}; the skills' whole lines take ${count(catalog.wholeTokens)}`,
    ),
  );
  for (const cost of catalog.skills.slice(0, COSTLIEST))
    terminal.out(
      `  ${String(cost.tokens).padStart(5)}  ${printable(cost.name)}${cost.place === "whole" ? "" : ` (${cost.place})`}`,
    );
  if (catalog.skills.length > COSTLIEST)
    terminal.out(`  … and ${plural(catalog.skills.length - COSTLIEST, "more skill")} (--json lists every one)`);
  if (recorded === undefined) terminal.out("Threads: not read (--no-threads)");
  else if ("threads" in recorded)
    terminal.out(
      `Threads: ${plural(recorded.threads.length, "saved chat thread")} read from ${printable(recorded.path)}`,
    );
  else terminal.out(`Threads: not read: ${printable(recorded.unavailable)}`);
  if (meaning.model !== undefined)
    terminal.out(
      meaning.examined
        ? `Rivals by meaning: ${printable(meaning.model)}`
        : `Rivals by meaning: not found (${printable(meaning.reason ?? "")}); by words only`,
    );
  const summary = severityCounts(report.findings);
  terminal.out(
    color.bold(
      `\n${plural(report.skills, "skill")}: ${plural(summary.error, "error")}, ${plural(summary.warning, "warning")}, ${summary.info} info`,
    ),
  );
}

// A file as a user would type it: relative to the working folder when inside it, `~/…` under home.
function displayFile(file: string): string {
  // displayFolder shows a SKILL.md as its folder; any other path as itself.
  const name = file.slice(file.lastIndexOf("/") + 1);
  return /^skill\.md$/i.test(name) ? `${displayFolder(file)}/${name}` : displayFolder(file);
}
