import type { SnapshotSkill } from "../../core/catalog/library-snapshot.js";
import { skillDirectory, type SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { FileListLimits, SkillFile, SkillFileListing } from "../../core/skill-source.js";
import type { BackendFileInfo } from "../skills-backend.js";

/** How deep and how many files of each skill a snapshot records; a listing asked for more reads the backend. */
export const SNAPSHOT_FILE_LIMITS: FileListLimits = { maxDepth: 6, maxFiles: 1000 };

type SkillFiles = Pick<SnapshotSkill, "files" | "filesTruncated">;

/** Each skill's files, by `SKILL.md` path, from one listing of every file of the library. */
export function filesOfSkills(
  skills: readonly SkillMetadata[],
  everything: readonly BackendFileInfo[],
  separator: string,
): Map<string, SkillFiles> {
  const byFolder = new Map<string, { path: string; entries: Array<{ relativePath: string; size?: number }> }>();
  for (const skill of skills) byFolder.set(`${skillDirectory(skill)}${separator}`, { path: skill.path, entries: [] });
  for (const file of everything) {
    if (file.is_dir || file.path.endsWith(separator)) continue;
    // The file belongs to every skill folder above it, as a listing of that folder would show it.
    for (let end = file.path.lastIndexOf(separator); end > 0; end = file.path.lastIndexOf(separator, end - 1)) {
      const folder = byFolder.get(file.path.slice(0, end + 1));
      if (!folder || file.path === folder.path) continue;
      const relativePath = file.path.slice(end + 1).replaceAll(separator, "/");
      folder.entries.push(file.size === undefined ? { relativePath } : { relativePath, size: file.size });
    }
  }
  const files = new Map<string, SkillFiles>();
  for (const { path, entries } of byFolder.values()) {
    const { files: kept, truncated } = withinLimits(entries, SNAPSHOT_FILE_LIMITS);
    files.set(path, { files: kept, filesTruncated: truncated });
  }
  return files;
}

/**
 * A skill's files from its snapshot entry, within `limits`; `undefined` when the snapshot cut
 * its listing shorter than `limits` asks, so only the backend can answer.
 */
export function snapshotListing(
  entry: SnapshotSkill,
  separator: string,
  limits: FileListLimits,
): SkillFileListing | undefined {
  const asksMore = limits.maxDepth > SNAPSHOT_FILE_LIMITS.maxDepth || limits.maxFiles > SNAPSHOT_FILE_LIMITS.maxFiles;
  if (entry.filesTruncated && asksMore) return undefined;
  const { files, truncated } = withinLimits(entry.files, limits);
  const folder = `${skillDirectory(entry.skill)}${separator}`;
  return {
    files: files.map((file): SkillFile => ({
      path: `${folder}${separator === "/" ? file.relativePath : file.relativePath.replaceAll("/", separator)}`,
      relativePath: file.relativePath,
      ...(file.size === undefined ? {} : { size: file.size }),
    })),
    truncated: truncated || (entry.filesTruncated && files.length === entry.files.length),
  };
}

// Breadth-first, as a backend listing walks a folder: shallower files first, then by path.
function withinLimits<T extends { relativePath: string }>(
  entries: readonly T[],
  limits: FileListLimits,
): { files: T[]; truncated: boolean } {
  const depth = (file: T) => file.relativePath.split("/").length - 1;
  const shallow = entries.filter((file) => depth(file) <= limits.maxDepth);
  shallow.sort((a, b) => depth(a) - depth(b) || (a.relativePath < b.relativePath ? -1 : 1));
  const files = shallow.slice(0, limits.maxFiles);
  return { files, truncated: shallow.length < entries.length || files.length < shallow.length };
}
