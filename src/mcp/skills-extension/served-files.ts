import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";

/** The Skills extension's limit on a skill's files, `SKILL.md` included. */
export const MAX_SKILL_FILES = 512;

/** The Skills extension's limit on the total size of a skill's files: 16 MiB. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

// A listing cut at this depth is incomplete, and an incomplete skill is not served.
const MAX_DEPTH = 32;

/** One file of a served skill. */
export interface ServedFile {
  /** Below the skill's folder, `/`-separated; `SKILL.md` for the skill file whatever its case on disk. */
  relativePath: string;
  /** Bytes, when the source knows without reading. */
  size: number | undefined;
}

/** A served skill's files, `SKILL.md` first, or why the skill is not served. */
export type ServedFiles = { ok: true; files: ServedFile[] } | { ok: false; reason: string };

/**
 * Every file of a skill as `skillset mcp` serves it, from the source's own listing (so symlinks
 * that leave the folder, special files and `.git` / `node_modules` folders are left out, as for
 * `load_skill`). A skill over the extension's limits, or whose listing stopped early, is not
 * served: the reason says which limit.
 */
export async function listServedFiles(source: SkillSource, skill: SkillMetadata): Promise<ServedFiles> {
  let listing;
  try {
    listing = await source.listFiles(skill, { maxDepth: MAX_DEPTH, maxFiles: MAX_SKILL_FILES });
  } catch (error) {
    return {
      ok: false,
      reason: `its files cannot be listed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (listing.files.length + 1 > MAX_SKILL_FILES)
    return { ok: false, reason: `it has more than ${MAX_SKILL_FILES} files, the Skills extension's limit` };
  if (listing.truncated) return { ok: false, reason: `its folders are nested deeper than ${MAX_DEPTH} levels` };
  const bytes = listing.files.reduce((total, file) => total + (file.size ?? 0), 0);
  if (bytes > MAX_SKILL_BYTES)
    return {
      ok: false,
      reason: `its files hold ${bytes} bytes, more than the Skills extension's limit of ${MAX_SKILL_BYTES} (16 MiB)`,
    };
  return {
    ok: true,
    files: [
      { relativePath: "SKILL.md", size: undefined },
      ...listing.files.map((file) => ({ relativePath: file.relativePath, size: file.size })),
    ],
  };
}
