import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { skillEntrypoint } from "../skill-module/skill-entrypoint.js";
import type { SkillSource } from "../skill-source.js";
import type { DoctorFinding } from "./doctor-finding.js";

// What to do about each problem of a module (codes of SkillModuleProblem).
const FIXES: Record<string, string> = {
  "entrypoint-invalid":
    "Name a .js, .mjs, .ts or .mts file inside the skill's folder, relative to it (e.g. metadata.entrypoint: src/index.ts)",
  "entrypoint-missing": "Add the file, or correct metadata.entrypoint to the module's path in the skill's folder",
  "entrypoint-outside": "Put the module itself in the skill's folder instead of a link to a file elsewhere",
  "entrypoint-unreadable": "Make the entrypoint a readable regular file in the skill's folder",
  "module-too-large": "Keep the module under 1 MiB: split it, or bundle less into it",
  "module-not-utf8": "Save the module as UTF-8",
  "module-syntax": "Fix the module at the line and column given (ES module syntax; TypeScript in .ts and .mts files)",
};

/**
 * The problem of the module a skill names in `metadata.entrypoint`, as an `error` finding (the
 * model cannot import what the skill's instructions rely on), read through the skill's source as
 * the engine reads it. None when the skill names no module or its module is sound.
 */
export async function moduleFindings(skill: SkillMetadata, source: SkillSource | undefined): Promise<DoctorFinding[]> {
  if (skillEntrypoint(skill) === undefined) return [];
  const read = source?.readFile && ((path: string, max: number) => source.readFile!(skill, path, max));
  // The module parsers load only for a library whose skills name modules.
  const { checkSkillModule } = await import("../skill-module/check-skill-module.js");
  const report = await checkSkillModule(skill, read);
  if (!report?.problem) return [];
  const { code, message } = report.problem;
  return [
    {
      code,
      severity: "error",
      skill: skill.name,
      file: skill.path,
      message: `The module of '${skill.name}' cannot be imported: ${message}`,
      fix: FIXES[code] ?? "Fix the module as the message says",
    },
  ];
}
