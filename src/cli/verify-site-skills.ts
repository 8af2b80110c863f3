import type { CatalogSnapshot } from "../core/catalog/catalog.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../errors/skillset-error.js";
import type { SkillSource } from "../core/skill-source.js";
import { isWellKnownSourceId } from "../sources/well-known/well-known-source.js";

/**
 * The snapshot with every skill from a site downloaded and verified (cached ones are not
 * fetched again), for `list` and `doctor`: a listing alone downloads nothing, so a skill whose
 * download fails its digest would show as `ok`. One that cannot be had is taken out of the
 * skills and reported by an error diagnostic with the source's reason, as a skipped skill is.
 */
export async function verifySiteSkills(
  snapshot: CatalogSnapshot,
  sources: readonly SkillSource[],
): Promise<CatalogSnapshot> {
  const failed: Diagnostic[] = [];
  for (const skill of snapshot.skills) {
    const source = isWellKnownSourceId(skill.source) ? sources.find((entry) => entry.id === skill.source) : undefined;
    if (!source) continue;
    try {
      await source.readSkill(skill);
    } catch (error) {
      failed.push({
        severity: "error",
        code: SkillsetError.isInstance(error) ? error.code : "cannot-read",
        file: skill.path,
        skill: skill.name,
        message: error instanceof Error ? error.message : String(error),
        source: skill.source,
      });
    }
  }
  if (failed.length === 0) return snapshot;
  const out = new Set(failed.map((diagnostic) => diagnostic.file));
  const skills = snapshot.skills.filter((skill) => !out.has(skill.path));
  return {
    skills,
    shadowed: snapshot.shadowed,
    diagnostics: [...snapshot.diagnostics, ...failed],
    version: `${snapshot.version}+verified`,
    get: (name) => skills.find((skill) => skill.name === name),
  };
}
