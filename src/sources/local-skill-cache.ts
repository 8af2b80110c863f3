import { statSync } from "node:fs";
import type { InspectSkillResult } from "../core/inspect-skill.js";

// What a local source remembers of each skill folder between scans, so that a re-scan reads
// only the SKILL.md files whose stamp changed.

/** One skill folder's `SKILL.md` as last read. */
export interface CachedSkill {
  /** `mtime:size:inode`, or "" when not known. */
  stamp: string;
  file: string;
  /** The frontmatter text the result was made from. */
  text: string;
  result: InspectSkillResult;
}

/** Cached skills by skill folder, in the order the scan found them. */
export type LocalSkillCache = Map<string, CachedSkill>;

/** The stamp (`mtime:size:inode`) of `file`, or undefined when it does not exist or cannot be stat'ed. */
export function statStamp(file: string): string | undefined {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat && `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether two caches hold the same folders with the same entry objects. A scan keeps the entry
 * of an unchanged skill, so identity is what says "unchanged".
 */
export function sameEntries(before: LocalSkillCache, after: LocalSkillCache): boolean {
  if (before.size !== after.size) return false;
  for (const [directory, entry] of after) if (before.get(directory) !== entry) return false;
  return true;
}
