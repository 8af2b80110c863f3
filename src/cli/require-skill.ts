import type { CatalogSnapshot } from "../core/catalog/catalog.js";
import { formatDiagnostic } from "../core/diagnostic.js";
import { CLOSEST_SKILLS, MAX_LISTED_SKILLS, nameQuery } from "../core/search/closest-skills.js";
import { createLexicalRanker } from "../core/search/skill-search.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { CliError } from "./cli-error.js";
import { rowName, skillRows } from "./skill-rows.js";

/**
 * The skill `name` of a scan, for the commands that show one skill (`info`, `render`, `tune`).
 * When there is none, a `not-found` error that says why a skill of that name (or in a folder of
 * that name) was skipped, if one was, and names the skills there are, or in a large library the
 * closest few.
 */
export async function requireSkill(snapshot: CatalogSnapshot, name: string): Promise<SkillMetadata> {
  const skill = snapshot.get(name);
  if (skill) return skill;
  const available = await availableSkills(snapshot.skills, name);
  const skipped = skillRows(snapshot).find((row) => row.status === "skipped" && rowName(row) === name);
  const reason = skipped?.diagnostics.find((diagnostic) => diagnostic.severity === "error");
  if (reason) throw new CliError("not-found", `Skill '${name}' was skipped: ${formatDiagnostic(reason)}. ${available}`);
  throw new CliError("not-found", `Skill '${name}' not found. ${available}`);
}

// As `load_skill` does, a large library gets the closest skills, not the whole list: a typo in a
// library of 100,000 skills printed two megabytes of names.
async function availableSkills(skills: readonly SkillMetadata[], name: string): Promise<string> {
  if (skills.length <= MAX_LISTED_SKILLS)
    return `Available skills: ${skills.map((entry) => entry.name).join(", ") || "(none)"}`;
  const closest = await createLexicalRanker()(nameQuery(name), skills, CLOSEST_SKILLS);
  const count = skills.length.toLocaleString("en-US");
  const near = closest.length > 0 ? `Closest: ${closest.map((hit) => hit.name).join(", ")}. ` : "";
  return `${near}${count} skills in all: \`skillset search\` finds one by what it does, \`skillset list\` names them all`;
}
