import { homedir } from "node:os";
import { basename, dirname, relative, sep } from "node:path";
import type { CatalogSnapshot } from "../core/catalog/catalog.js";
import { formatDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import { printable } from "../core/text/safe-text.js";
import { isInsideFolder } from "../fs/path-inside.js";
import { wellKnownSiteOf } from "../sources/well-known/well-known-source.js";

/** How `list` reports a skill: loaded cleanly, loaded with warnings, hidden by another, or skipped. */
export type SkillStatus = "ok" | "warning" | "shadowed" | "skipped";

/** One line of `skillset list`. */
export interface SkillRow {
  name: string | null;
  description: string | null;
  path: string;
  source: string;
  status: SkillStatus;
  diagnostics: Diagnostic[];
}

// Problems with a package an `npm:` source names, not with a skill file: listed, but never a row.
const PACKAGE_PROBLEMS = new Set(["package-not-installed", "invalid-package-name"]);

/**
 * Every `SKILL.md` the sources saw, with its status and its own diagnostics, sorted by name then
 * path. A file or folder with an error is `skipped`: a `SKILL.md` that cannot be used, and a
 * symlink that was not followed (outside the allowed folders, dangling, a loop).
 */
export function skillRows(snapshot: CatalogSnapshot): SkillRow[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const diagnostic of snapshot.diagnostics) {
    if (PACKAGE_PROBLEMS.has(diagnostic.code)) continue;
    const list = byFile.get(diagnostic.file) ?? [];
    list.push(diagnostic);
    byFile.set(diagnostic.file, list);
  }
  const rows: SkillRow[] = [];
  const seen = new Set<string>();
  const add = (row: Omit<SkillRow, "diagnostics">) => {
    seen.add(row.path);
    rows.push({ ...row, diagnostics: byFile.get(row.path) ?? [] });
  };
  for (const skill of snapshot.skills) {
    const warned = (byFile.get(skill.path) ?? []).some((diagnostic) => diagnostic.severity === "warning");
    add({
      name: skill.name,
      description: skill.description,
      path: skill.path,
      source: skill.source,
      status: warned ? "warning" : "ok",
    });
  }
  for (const skill of snapshot.shadowed) {
    add({
      name: skill.name,
      description: skill.description,
      path: skill.path,
      source: skill.source,
      status: "shadowed",
    });
  }
  for (const [file, diagnostics] of byFile) {
    if (seen.has(file) || !diagnostics.some((diagnostic) => diagnostic.severity === "error")) continue;
    add({
      name: diagnostics.find((diagnostic) => diagnostic.skill)?.skill ?? null,
      description: null,
      path: file,
      source: diagnostics[0]!.source ?? "",
      status: "skipped",
    });
  }
  return rows.sort((a, b) => rowName(a).localeCompare(rowName(b)) || a.path.localeCompare(b.path));
}

/** The name to show for a row: the skill's, or its folder's when the frontmatter has none. */
export function rowName(row: SkillRow): string {
  return row.name ?? basename(skillFolder(row.path));
}

/**
 * The folder of a row's path: the folder of a `SKILL.md`, or the path itself for an entry that
 * is a folder (a symlinked folder that was not followed).
 */
function skillFolder(path: string): string {
  return /^skill\.md$/i.test(basename(path)) ? dirname(path) : path;
}

/**
 * The skill's folder as a user would type it: relative to the working folder when inside it,
 * `~/…` under the home folder, absolute otherwise.
 */
export function displayFolder(file: string, cwd = process.cwd(), home = homedir()): string {
  const folder = skillFolder(file);
  const inside = (root: string) => (isInsideFolder(root, folder) ? relative(root, folder) : undefined);
  const fromCwd = inside(cwd);
  if (fromCwd !== undefined) return fromCwd === "" ? "." : fromCwd;
  const fromHome = home ? inside(home) : undefined;
  if (fromHome !== undefined) return fromHome === "" ? "~" : `~${sep}${fromHome}`;
  return folder;
}

/** Where a row's skill comes from, as `list` shows it: a site's URL (not its cache), else {@link displayFolder}. */
export function displayLocation(row: Pick<SkillRow, "path" | "source">): string {
  return wellKnownSiteOf(row.source) ?? displayFolder(row.path);
}

/** A diagnostic on one line, a site's skill named by the site's URL rather than its cache path. */
export function displayDiagnostic(diagnostic: Diagnostic): string {
  const site = diagnostic.source === undefined ? undefined : wellKnownSiteOf(diagnostic.source);
  return formatDiagnostic(
    site === undefined || /^https?:/.test(diagnostic.file) ? diagnostic : { ...diagnostic, file: site },
  );
}

/** Diagnostics that belong to no listed file (a source folder that cannot be read, a scan limit). */
export function sourceDiagnostics(snapshot: CatalogSnapshot, rows: SkillRow[]): Diagnostic[] {
  const files = new Set(rows.map((row) => row.path));
  return snapshot.diagnostics.filter((diagnostic) => !files.has(diagnostic.file));
}

/** Shortens text to `width` characters on one line, with an ellipsis when cut. */
export function shorten(text: string, width: number): string {
  const line = printable(text.replace(/\s+/g, " ").trim());
  return line.length <= width ? line : `${line.slice(0, width - 1).trimEnd()}…`;
}

/** Shortens a path to `width` characters by cutting its start, where paths of one list agree. */
export function shortenStart(text: string, width: number): string {
  const line = printable(text);
  return line.length <= width ? line : `…${line.slice(line.length - width + 1)}`;
}
