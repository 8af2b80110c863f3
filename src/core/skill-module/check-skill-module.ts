import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { MAX_MODULE_BYTES } from "./module-javascript.js";
import { moduleExports, type ModuleExport } from "./module-exports.js";
import { ENTRYPOINT_KEY, skillEntrypoint } from "./skill-entrypoint.js";

/**
 * What is wrong with a skill's module, each code stable: `entrypoint-invalid` (the path breaks
 * a rule of `checkEntrypoint`), `entrypoint-missing`, `entrypoint-outside` (a link that leads out
 * of the skill's folder), `entrypoint-unreadable` (not a regular file, or a source that cannot
 * read files), `module-too-large`, `module-not-utf8`, `module-syntax`.
 */
export interface SkillModuleProblem {
  code: string;
  message: string;
}

/** A skill's module, checked: its entrypoint as written and checked, and its exports or its problem. */
export interface SkillModuleReport {
  /** `metadata.entrypoint` as written. */
  entrypoint: string;
  /** The checked path, relative to the skill's folder, when the entrypoint is a usable path. */
  path?: string;
  exports?: ModuleExport[];
  problem?: SkillModuleProblem;
}

/** Reads a file below the skill's folder, refusing links out and special files (a source's `readFile`). */
export type ReadSkillFile = (relativePath: string, maxBytes: number) => Promise<Uint8Array>;

// What a reader's errors mean for a module; other codes are `entrypoint-unreadable`.
const READ_PROBLEMS: Record<string, string> = {
  "not-found": "entrypoint-missing",
  "outside-skill": "entrypoint-outside",
  symlink: "entrypoint-outside",
  "too-large": "module-too-large",
};

/**
 * Checks the module a skill names in `metadata.entrypoint`: the path, then the file read
 * through `read` (so the source's rules on links and special files apply), then its exports,
 * which also finds syntax errors. `undefined` when the skill names no module; never throws.
 */
export async function checkSkillModule(
  skill: Pick<SkillMetadata, "metadata">,
  read: ReadSkillFile | undefined,
): Promise<SkillModuleReport | undefined> {
  const checked = checkedEntrypoint(skill);
  if (checked === undefined || "problem" in checked) return checked;
  const path = checked.path!;
  if (!read) return failed(checked, "entrypoint-unreadable", `${path} cannot be read: this source does not read files`);
  let bytes: Uint8Array;
  try {
    bytes = await read(path, MAX_MODULE_BYTES);
  } catch (error) {
    return readFailure(checked, error);
  }
  return checkModuleBytes(checked, bytes);
}

/** {@link checkSkillModule} with a reader that returns the bytes or throws: for checks on disk. */
export function checkSkillModuleNow(
  skill: Pick<SkillMetadata, "metadata">,
  read: (relativePath: string, maxBytes: number) => Uint8Array,
): SkillModuleReport | undefined {
  const checked = checkedEntrypoint(skill);
  if (checked === undefined || "problem" in checked) return checked;
  let bytes: Uint8Array;
  try {
    bytes = read(checked.path!, MAX_MODULE_BYTES);
  } catch (error) {
    return readFailure(checked, error);
  }
  return checkModuleBytes(checked, bytes);
}

// The entrypoint with its checked path, or a report of why it is not a usable path.
function checkedEntrypoint(skill: Pick<SkillMetadata, "metadata">): SkillModuleReport | undefined {
  const checked = skillEntrypoint(skill);
  if (checked === undefined) return undefined;
  const entrypoint = skill.metadata[ENTRYPOINT_KEY]!;
  if ("error" in checked) return { entrypoint, problem: { code: "entrypoint-invalid", message: checked.error } };
  return { entrypoint, path: checked.path };
}

function failed(checked: SkillModuleReport, code: string, reason: string): SkillModuleReport {
  return {
    entrypoint: checked.entrypoint,
    path: checked.path!,
    problem: { code, message: `metadata.${ENTRYPOINT_KEY}: ${reason}` },
  };
}

function readFailure(checked: SkillModuleReport, error: unknown): SkillModuleReport {
  const code = SkillsetError.isInstance(error)
    ? (READ_PROBLEMS[error.code] ?? "entrypoint-unreadable")
    : "entrypoint-unreadable";
  return failed(checked, code, error instanceof Error ? error.message : String(error));
}

function checkModuleBytes(checked: SkillModuleReport, bytes: Uint8Array): SkillModuleReport {
  const path = checked.path!;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return failed(checked, "module-not-utf8", `${path} is not UTF-8 text`);
  }
  const result = moduleExports(path, text);
  if (!("error" in result)) return { entrypoint: checked.entrypoint, path, exports: result.exports };
  const code = result.error.startsWith("Syntax error") ? "module-syntax" : "module-too-large";
  return { entrypoint: checked.entrypoint, path, problem: { code, message: result.error } };
}
