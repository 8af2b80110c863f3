import type { CatalogSnapshot } from "../core/catalog/catalog.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { CliError } from "./cli-error.js";
import { rowName, skillRows } from "./skill-rows.js";

/**
 * The skill `name` of a scan, for the commands that show one skill (`info`, `render`). When
 * there is none, a `not-found` error that says why a skill of that name (or in a folder of
 * that name) was skipped, if one was, and names the skills there are.
 */
export function requireSkill(snapshot: CatalogSnapshot, name: string): SkillMetadata {
  const skill = snapshot.get(name);
  if (skill) return skill;
  const available = snapshot.skills.map((entry) => entry.name).join(", ") || "(none)";
  const skipped = skillRows(snapshot).find((row) => row.status === "skipped" && rowName(row) === name);
  const reason = skipped?.diagnostics.find((diagnostic) => diagnostic.severity === "error");
  if (reason)
    throw new CliError(
      "not-found",
      `Skill '${name}' was skipped: ${formatDiagnostic(reason)}. Available skills: ${available}`,
    );
  throw new CliError("not-found", `Skill '${name}' not found. Available skills: ${available}`);
}
