import { existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import { printable } from "../../core/text/safe-text.js";
import { findProjectRoot } from "../../fs/project-root.js";
import {
  verifySkillsLock,
  type LockedSkillCheck,
  type SkillsLockReport,
} from "../../node/skills-lock/verify-skills-lock.js";
import { CliError } from "../cli-error.js";
import { homePath } from "../home-path.js";
import { plural } from "../plural.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset verify`. */
export interface VerifyOptions {
  /** `--lock <file>`: the lockfile. @default skills-lock.json of the project */
  lock?: string;
  json?: boolean;
}

/**
 * `skillset verify [sources...]`: checks the installed skills against the `skills-lock.json` the
 * `skills` CLI wrote. Exit 0 only when every entry is installed and unchanged and no installed
 * skill is unlisted; 1 otherwise, and when the lockfile cannot be used.
 */
export async function verifyCommand(paths: string[], options: VerifyOptions, terminal: Terminal): Promise<number> {
  const lockfile =
    options.lock === undefined
      ? join(findProjectRoot(process.cwd()) ?? process.cwd(), "skills-lock.json")
      : homePath(options.lock);
  const locations = paths.map(homePath);
  const notFolders = locations.filter((path) => !existsSync(path) || !statSync(path).isDirectory());
  if (notFolders.length > 0) throw new CliError("no-such-folder", `No such folder: ${notFolders.join(", ")}`);
  let report: SkillsLockReport;
  try {
    report = verifySkillsLock({ lockfile, ...(locations.length > 0 ? { locations } : {}) });
  } catch (error) {
    if (SkillsetError.isInstance(error) && error.code === "invalid-lockfile")
      throw new CliError("invalid-lockfile", error.message);
    throw error;
  }
  if (options.json) terminal.out(JSON.stringify(report, null, 2));
  else printReport(report, terminal);
  return report.ok ? 0 : 1;
}

function printReport(report: SkillsLockReport, terminal: Terminal): void {
  const shown = (path: string) => printable(relative(process.cwd(), path) || ".");
  for (const skill of report.skills) {
    terminal.out(
      `${skill.status === "ok" ? "✓" : "✗"} ${printable(skill.name)}: ${skill.status}${skill.note ? ` (${printable(skill.note)})` : ""}`,
    );
    for (const copy of skill.installed)
      terminal.out(`    ${copy.status === "ok" ? "ok" : copy.status}  ${shown(copy.path)}${details(copy)}`);
  }
  for (const { path } of report.unlisted)
    terminal.out(`✗ ${shown(path)}: installed, but not in ${shown(report.lockfile)}`);
  const failed = report.skills.filter((skill) => skill.status !== "ok");
  const summary = `${plural(report.skills.length, "locked skill")}: ${report.skills.length - failed.length} ok${counts(failed)}${report.unlisted.length > 0 ? `; ${report.unlisted.length} not in the lockfile` : ""}`;
  terminal.out(summary);
}

function details(copy: LockedSkillCheck["installed"][number]): string {
  const parts: string[] = [];
  if (copy.files) {
    const { changed, added, removed } = copy.files;
    if (changed.length > 0) parts.push(`changed: ${changed.join(", ")}`);
    if (added.length > 0) parts.push(`added: ${added.join(", ")}`);
    if (removed.length > 0) parts.push(`removed: ${removed.join(", ")}`);
  }
  if (copy.note) parts.push(copy.note);
  return parts.length > 0 ? ` — ${printable(parts.join("; "))}` : "";
}

function counts(failed: LockedSkillCheck[]): string {
  const by = new Map<string, number>();
  for (const skill of failed) by.set(skill.status, (by.get(skill.status) ?? 0) + 1);
  return [...by].map(([status, count]) => `, ${count} ${status}`).join("");
}
