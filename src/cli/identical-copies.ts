import type { CatalogSnapshot } from "../core/catalog/catalog.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { digestSkillFolder } from "../node/skills-lock/skill-folder-hash.js";

// Skills in folders on this machine (a folder's, an npm package's), which can be compared file by file.
const ON_DISK = /^(local|npm):/;

/**
 * The snapshot with every shadowed skill that is an identical copy of its winner taken as the
 * same skill: `npx skills add --copy` for two agents writes one skill into two folders, the same
 * bytes under the same lockfile entry, and that is one skill, not one hiding another. Identical
 * means the same files with the same bytes (the `skills` CLI's `computedHash`) and the same
 * links; such a copy leaves `shadowed` and its `shadowed` info becomes a `same-skill` info.
 */
export function mergeIdenticalCopies(snapshot: CatalogSnapshot): CatalogSnapshot {
  const copies = new Map<string, SkillMetadata>();
  for (const hidden of snapshot.shadowed) {
    const winner = snapshot.get(hidden.name);
    if (winner && ON_DISK.test(hidden.source) && ON_DISK.test(winner.source) && sameFiles(hidden, winner))
      copies.set(hidden.path, winner);
  }
  if (copies.size === 0) return snapshot;
  const diagnostics = snapshot.diagnostics.map((diagnostic): Diagnostic => {
    const winner = diagnostic.code === "shadowed" ? copies.get(diagnostic.file) : undefined;
    if (!winner) return diagnostic;
    return {
      ...diagnostic,
      code: "same-skill",
      message: `Skill '${winner.name}' is the same skill as ${winner.path} from ${winner.source} (an identical copy: the same files, byte for byte); listed once`,
    };
  });
  return {
    ...snapshot,
    shadowed: snapshot.shadowed.filter((skill) => !copies.has(skill.path)),
    diagnostics,
    version: `${snapshot.version}+copies`,
    get: (name) => snapshot.get(name),
  };
}

function sameFiles(a: SkillMetadata, b: SkillMetadata): boolean {
  try {
    const [first, second] = [digestSkillFolder(skillDirectory(a)), digestSkillFolder(skillDirectory(b))];
    return first.hash === second.hash && first.links.join("\n") === second.links.join("\n");
  } catch {
    // A folder that cannot be read is not known to be a copy: it stays shadowed.
    return false;
  }
}
