import type { Diagnostic } from "../diagnostic.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// One skill reached through two paths — `.claude/skills/x` linked to `.agents/skills/x`, as
// installers make them — is one skill: it is listed once, and the other path is reported as
// the same skill instead of as a second skill that shadows or duplicates it.

/**
 * Whether `a` and `b` are the same `SKILL.md` reached twice: at least one of them through a
 * symbolic link (`realPath`), and both lead to the same real file. Skills of sources without
 * real paths (memory, backends, MCP) are never the same by this test, even with equal paths.
 */
export function isSameSkill(a: SkillMetadata, b: SkillMetadata): boolean {
  if (a.realPath === undefined && b.realPath === undefined) return false;
  return (a.realPath ?? a.path) === (b.realPath ?? b.path);
}

/** The `same-skill` info about `other`, another path to the listed skill `listed`. */
export function sameSkillDiagnostic(other: SkillMetadata, listed: SkillMetadata): Diagnostic {
  const real = listed.realPath ?? listed.path;
  return {
    severity: "info",
    code: "same-skill",
    file: other.path,
    skill: other.name,
    source: other.source,
    message: `Skill '${other.name}' is the same skill as ${listed.path} from ${listed.source} (both are ${real}); listed once`,
  };
}
