import type { Diagnostic } from "../../core/diagnostic.js";
import { collectSkills, inspectSkillFile } from "../../core/catalog/collect-skills.js";
import type { LibrarySnapshot, SnapshotSkill } from "../../core/catalog/library-snapshot.js";
import type { InspectSkillResult } from "../../core/skill-file/inspect-skill.js";
import type { SkillSource } from "../../core/skill-source.js";
import { sha256Hex } from "../../core/text/sha256-hex.js";
import { downloadAll, type SkillsBackend } from "../skills-backend.js";
import { SNAPSHOT_FILE_LIMITS } from "./snapshot-files.js";

/** A snapshot's skills and diagnostics after some `SKILL.md` files were read again, and what was read. */
export interface RefreshedEntries {
  skills: SnapshotSkill[];
  diagnostics: Diagnostic[];
  /** The bytes read, by path; a path missing here was not found (the skill was removed). */
  contents: Map<string, Uint8Array>;
}

/**
 * `current` with exactly the skills at `paths` read again: each changed, added or removed as its
 * `SKILL.md` now is, its folder listed again; every other entry is kept as it was. Names are
 * checked for duplicates across the whole result, as a full scan would.
 */
export async function refreshEntries(
  current: LibrarySnapshot,
  paths: readonly string[],
  backend: SkillsBackend,
  folders: SkillSource,
): Promise<RefreshedEntries> {
  const refreshed = new Set(paths);
  const read = await downloadAll(backend, [...refreshed]);
  const contents = new Map<string, Uint8Array>();
  const fresh = new Map<string, SnapshotSkill>();
  const results: Array<InspectSkillResult & { path: string }> = current.skills
    .filter((entry) => !refreshed.has(entry.skill.path))
    .map((entry) => ({ path: entry.skill.path, skill: entry.skill, diagnostics: [] }));
  for (const path of refreshed) {
    const content = read.get(path);
    if (content === undefined) continue;
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    contents.set(path, bytes);
    const result = inspectSkillFile(bytes, path, current.source);
    results.push({ path, ...result });
    if (!result.skill) continue;
    const listing = await folders.listFiles(result.skill, SNAPSHOT_FILE_LIMITS);
    fresh.set(path, {
      skill: result.skill,
      digest: await sha256Hex(bytes),
      files: listing.files.map(({ relativePath, size }) =>
        size === undefined ? { relativePath } : { relativePath, size },
      ),
      filesTruncated: listing.truncated,
    });
  }
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kept = new Map(current.skills.map((entry) => [entry.skill.path, entry]));
  // Diagnostics of the files read again are replaced by what they say now.
  const diagnostics = current.diagnostics.filter((diagnostic) => !refreshed.has(diagnostic.file));
  const skills = collectSkills(results, current.source, diagnostics);
  return {
    skills: skills.map((skill) => fresh.get(skill.path) ?? kept.get(skill.path)!),
    diagnostics,
    contents,
  };
}
