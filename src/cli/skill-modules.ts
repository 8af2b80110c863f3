import type { Diagnostic } from "../core/diagnostic.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { checkSkillModule, type SkillModuleReport } from "../core/skill-module/check-skill-module.js";
import type { ModuleExport } from "../core/skill-module/module-exports.js";
import type { SkillSource } from "../core/skill-source.js";

/** The module of each skill that names one (`metadata.entrypoint`), checked through the skill's source, by `SKILL.md` path. */
export async function skillModules(
  skills: readonly SkillMetadata[],
  sources: readonly SkillSource[],
): Promise<Map<string, SkillModuleReport>> {
  const byId = new Map(sources.map((source) => [source.id, source]));
  const reports = new Map<string, SkillModuleReport>();
  for (const skill of skills) {
    const source = byId.get(skill.source);
    const report = await checkSkillModule(
      skill,
      source?.readFile && ((path, max) => source.readFile!(skill, path, max)),
    );
    if (report) reports.set(skill.path, report);
  }
  return reports;
}

/**
 * A module's problem as a warning about the skill: the skill loads, its module cannot be
 * imported. `undefined` without a problem, and for a path that breaks the rules, which the
 * source's own discovery already reports (`entrypoint-invalid`).
 */
export function moduleDiagnostic(skill: SkillMetadata, report: SkillModuleReport | undefined): Diagnostic | undefined {
  const problem = report?.problem;
  if (!problem || problem.code === "entrypoint-invalid") return undefined;
  return {
    severity: "warning",
    code: problem.code,
    file: skill.path,
    message: problem.message,
    skill: skill.name,
    source: skill.source,
  };
}

/** An export on one line, as `info` lists it: its signature (or name and kind), then its summary. */
export function exportLine(entry: ModuleExport): string {
  const head =
    entry.kind === "re-export" || entry.kind === "namespace"
      ? `${entry.name === "*" ? "* (everything)" : entry.name} from ${entry.from}`
      : (entry.signature ?? entry.name);
  const kind = entry.kind === "function" ? "" : ` (${entry.kind})`;
  return `${head}${kind}${entry.summary ? ` — ${entry.summary}` : ""}`;
}
