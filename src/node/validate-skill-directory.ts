import { lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";
import {
  validateSkillText,
  type SkillValidationOptions,
  type ValidationReport,
} from "../core/skill-file/validate-skill.js";
import { linkTarget } from "../fs/link-target.js";
import { decodeUtf8, readBoundedFile } from "../fs/bounded-read.js";
import { expandHome } from "../fs/expand-home.js";
import { inspectSkill } from "../core/skill-file/inspect-skill.js";
import { checkSkillModuleNow } from "../core/skill-module/check-skill-module.js";
import { readContainedFile } from "../sources/skill-folder-files.js";

/** A {@link ValidationReport} for one skill folder on disk. */
export interface DirectoryValidationReport extends ValidationReport {
  /** The skill folder, as given. */
  path: string;
}

/**
 * Validates a skill folder the way the reference's `skills-ref validate` does; a path to a
 * `SKILL.md` means its folder, and a leading `~` or `~/` the home folder. Besides the
 * reference's checks, a `SKILL.md` that is not a regular file, larger than 10 MiB or not UTF-8
 * is an error instead of a crash or a hang.
 */
export function validateSkillDirectory(
  path: string,
  options: Omit<SkillValidationOptions, "directoryName"> = {},
): DirectoryValidationReport {
  let expanded: string;
  try {
    expanded = expandHome(path);
  } catch (error) {
    if (!SkillsetError.isInstance(error)) throw error;
    return { path, valid: false, name: null, errors: [error.message], warnings: [] };
  }
  const given = expanded.length > 1 ? expanded.replace(/\/+$/, "") : expanded;
  const directory = /(^|\/)skill\.md$/i.test(given) && statKind(given) === "file" ? dirname(given) : given;
  const fail = (message: string): DirectoryValidationReport => ({
    path: directory,
    valid: false,
    name: null,
    errors: [message],
    warnings: [],
  });

  const kind = statKind(directory);
  if (kind === "missing") return fail(brokenLink(directory) ?? `Path does not exist: ${directory}`);
  if (kind !== "directory") return fail(`Not a directory: ${directory}`);

  for (const fileName of ["SKILL.md", "skill.md"]) {
    const file = `${directory}/${fileName}`;
    if (statKind(file) === "missing") {
      // `ls` shows a link whose target is gone: say that, not "Missing required file".
      const broken = brokenLink(file);
      if (broken) return fail(broken);
      continue;
    }
    let text: string;
    try {
      text = readText(file);
    } catch (error) {
      if (!SkillsetError.isInstance(error)) throw error;
      return fail(error.message);
    }
    // The folder's own name, also for `.` (the reference would compare an empty name there).
    const report = validateSkillText(text, { ...options, directoryName: basename(resolve(directory)) });
    if (fileName !== "SKILL.md") report.warnings.push("skill.md is accepted, but SKILL.md is the standard name");
    report.warnings.push(...moduleWarnings(directory, text));
    return { path: directory, ...report };
  }
  return fail("Missing required file: SKILL.md");
}

// The problems of the module `metadata.entrypoint` names, read as a local source reads it (no link
// out of the folder, no special file). Warnings: the reference validator passes such a skill. A path
// that breaks the rules is validateSkillText's warning already.
function moduleWarnings(directory: string, text: string): string[] {
  const skill = inspectSkill({ text, file: `${directory}/SKILL.md`, source: "validate" }).skill;
  if (!skill) return [];
  const report = checkSkillModuleNow(skill, (path, maxBytes) => readContainedFile(directory, path, maxBytes));
  return report?.problem && report.problem.code !== "entrypoint-invalid" ? [report.problem.message] : [];
}

// Validation only reads, and the reference follows symlinks, so this does too.
function readText(file: string): string {
  try {
    return decodeUtf8(readBoundedFile(file, MAX_SKILL_FILE_BYTES), file);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "symlink") throw error;
    return decodeUtf8(readBoundedFile(realpathSync(file), MAX_SKILL_FILE_BYTES), file);
  }
}

// Why `path` cannot be followed when it is a symbolic link that leads nowhere (dangling, a loop).
function brokenLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    linkTarget(path);
    return undefined;
  } catch (error) {
    return SkillsetError.isInstance(error) ? error.message : undefined;
  }
}

function statKind(path: string): "missing" | "directory" | "file" | "other" {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "directory" : stat.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}
