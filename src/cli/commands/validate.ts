import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { printable } from "../../core/text/safe-text.js";
import { findSkillDirectories } from "../../node/find-skill-directories.js";
import { findNestedSkillFile } from "../../sources/nested-skill-file.js";
import { validateSkillDirectory, type DirectoryValidationReport } from "../../node/validate-skill-directory.js";
import { homePath } from "../home-path.js";
import { allowedRoots } from "../open-catalog.js";
import { plural } from "../plural.js";
import { shellCommand } from "../shell-command.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset validate`. */
export interface ValidateOptions {
  recursive?: boolean;
  /** `--allow-root <dir>`: with `--recursive`, further folders that symlinked folders may lead into. */
  allowRoot?: string[];
  json?: boolean;
  allowClaudeCodeFields?: boolean;
}

/**
 * `skillset validate [paths...]`: strict validation that agrees with the reference. Returns
 * the exit code: 0 when every skill is valid, 1 otherwise.
 */
export async function validateCommand(paths: string[], options: ValidateOptions, terminal: Terminal): Promise<number> {
  const reports: DirectoryValidationReport[] = [];
  const validationOptions = { allowClaudeCodeFields: options.allowClaudeCodeFields ?? false };
  const extraRoots = allowedRoots(options);
  for (const path of (paths.length > 0 ? paths : ["."]).map(homePath)) {
    if (!options.recursive || holdsSkill(path)) {
      const report = validateSkillDirectory(path, validationOptions);
      if (!options.recursive && !holdsSkill(path)) hintRecursive(report, options);
      reports.push(report);
      continue;
    }
    if (!existsSync(path) || !statSync(path).isDirectory()) {
      // The same "does not exist" / "Not a directory" reports as without --recursive.
      reports.push(validateSkillDirectory(path, validationOptions));
      continue;
    }
    // A symlinked folder that is not followed fails, as `list` counts it skipped.
    const skipped: DirectoryValidationReport[] = [];
    const onSkipped = (link: string, message: string) =>
      skipped.push({ path: link, name: null, valid: false, errors: [message], warnings: [] });
    const found = findSkillDirectories(path, { allowedRoots: extraRoots, onSkipped });
    if (found.length === 0 && skipped.length === 0) {
      reports.push({
        path,
        name: null,
        valid: false,
        errors: [`No SKILL.md found in ${path} or any folder below it`],
        warnings: [],
      });
    }
    for (const directory of found) reports.push(validateSkillDirectory(directory, validationOptions));
    reports.push(...skipped);
  }

  const valid = reports.every((report) => report.valid);
  if (options.json) {
    const skills = reports.map(({ path, name, valid, errors, warnings }) => ({ path, name, valid, errors, warnings }));
    terminal.out(JSON.stringify({ skills, valid }, null, 2));
  } else {
    printReports(reports, terminal);
  }
  return valid ? 0 : 1;
}

/** A folder of skills (or of collections of them) given without --recursive: say which command validates them. */
function hintRecursive(report: DirectoryValidationReport, options: ValidateOptions): void {
  let entries;
  try {
    entries = readdirSync(report.path, { withFileTypes: true });
  } catch {
    return;
  }
  const skills = entries.filter((entry) => entry.isDirectory() && holdsSkill(join(report.path, entry.name))).length;
  const nested = skills === 0 ? findNestedSkillFile(report.path) : undefined;
  if (skills === 0 && !nested) return;
  const flags = [
    "validate",
    "--recursive",
    ...(options.json ? ["--json"] : []),
    ...(options.allowClaudeCodeFields ? ["--allow-claude-code-fields"] : []),
  ];
  const found = nested
    ? `skills lie deeper (the first: ${nested})`
    : `${plural(skills, "folder")} in it ${skills === 1 ? "does" : "do"}`;
  report.warnings.push(
    `${report.path} holds no SKILL.md, but ${found}: to validate them, run \`${shellCommand(flags, [report.path])}\``,
  );
}

function holdsSkill(path: string): boolean {
  try {
    if (statSync(path).isFile()) return /(^|\/)skill\.md$/i.test(path);
  } catch {
    return false;
  }
  return existsSync(join(path, "SKILL.md")) || existsSync(join(path, "skill.md"));
}

// The whole report, valid and invalid skills and the summary, is the command's result: stdout.
// stderr is left for problems of the run itself (as main() prints them).
function printReports(reports: DirectoryValidationReport[], terminal: Terminal): void {
  const { color } = terminal;
  for (const report of reports) {
    const label = printable(report.name ? `${report.path} (${report.name})` : report.path);
    const line = report.valid ? `${color.green("✓")} ${label}` : `${color.red("✗")} ${label}`;
    const details = [
      ...report.errors.map((error) => `  ${color.red("error")}: ${printable(error)}`),
      ...report.warnings.map((warning) => `  ${color.yellow("warning")}: ${printable(warning)}`),
    ];
    terminal.out([line, ...details].join("\n"));
  }
  const invalid = reports.filter((report) => !report.valid).length;
  terminal.out(
    color.bold(`${plural(reports.length, "skill")} checked: ${reports.length - invalid} valid, ${invalid} invalid`),
  );
}
