import { inspectSkillFile } from "../../core/catalog/collect-skills.js";
import type { SnapshotCorrection } from "../../core/catalog/snapshot-correction.js";
import type { SkillSource } from "../../core/skill-source.js";
import { sha256Hex } from "../../core/text/sha256-hex.js";
import { downloadAll, type SkillsBackend } from "../skills-backend.js";
import { SNAPSHOT_FILE_LIMITS } from "./snapshot-files.js";

/** The skills at some `SKILL.md` paths as they are now, and the bytes read. */
export interface ReadCorrections {
  corrections: SnapshotCorrection[];
  /** The bytes read, by path; a path missing here was not found (the skill was removed). */
  contents: Map<string, Uint8Array>;
}

/**
 * Reads the `SKILL.md` at each of `paths` again: its entry as a snapshot of `source` would have
 * it (metadata, digest, its folder listed again), or none when the file is gone or no skill loads
 * from it, with the file's diagnostics.
 */
export async function readCorrections(
  source: string,
  paths: readonly string[],
  backend: SkillsBackend,
  folders: SkillSource,
): Promise<ReadCorrections> {
  const unique = [...new Set(paths)];
  const read = await downloadAll(backend, unique);
  const contents = new Map<string, Uint8Array>();
  const corrections: SnapshotCorrection[] = [];
  for (const path of unique) {
    const content = read.get(path);
    if (content === undefined) {
      corrections.push({ path, entry: null, diagnostics: [] });
      continue;
    }
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    contents.set(path, bytes);
    const { skill, diagnostics } = inspectSkillFile(bytes, path, source);
    if (!skill) {
      corrections.push({ path, entry: null, diagnostics });
      continue;
    }
    const listing = await folders.listFiles(skill, SNAPSHOT_FILE_LIMITS);
    const files = listing.files.map(({ relativePath, size }) =>
      size === undefined ? { relativePath } : { relativePath, size },
    );
    const entry = { skill, digest: await sha256Hex(bytes), files, filesTruncated: listing.truncated };
    corrections.push({ path, entry, diagnostics });
  }
  return { corrections, contents };
}
