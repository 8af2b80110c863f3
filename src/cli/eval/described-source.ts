import { createHash } from "node:crypto";
import type { SkillSource } from "../../core/skill-source.js";

/**
 * `source` with the description of the skill at `path` (its `SKILL.md`) replaced, so an agent's
 * catalog shows a candidate description without the file being changed. Everything else,
 * reading the skill included, goes to `source`; the version changes with the description, so no
 * cache takes one catalog for the other.
 */
export function withDescription(source: SkillSource, path: string, description: string): SkillSource {
  const stamp = createHash("sha256").update(description).digest("hex").slice(0, 16);
  const described: SkillSource = {
    specificationVersion: source.specificationVersion,
    id: source.id,
    scan: async () => {
      const scan = await source.scan();
      if (!scan.skills.some((skill) => skill.path === path)) return scan;
      return {
        ...scan,
        version: `${scan.version}+description:${stamp}`,
        skills: scan.skills.map((skill) => (skill.path === path ? { ...skill, description } : skill)),
      };
    },
    readSkill: (skill) => source.readSkill(skill),
    listFiles: (skill, limits) => source.listFiles(skill, limits),
    ...(source.readFile ? { readFile: source.readFile.bind(source) } : {}),
    ...(source.runsCommands === undefined ? {} : { runsCommands: source.runsCommands }),
    ...(source.close ? { close: source.close.bind(source) } : {}),
  };
  return described;
}
