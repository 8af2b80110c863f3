import type { Diagnostic } from "../core/diagnostic.js";
import { statSync } from "node:fs";
import type { InspectSkillResult } from "../core/skill-file/inspect-skill.js";
import type { TimeSlice } from "../core/time-slice.js";

// What a local source remembers of each skill folder between scans, so that a re-scan reads
// only the SKILL.md files whose stamp changed.

/**
 * One skill folder's `SKILL.md` as last read: what inspecting it gave, and what from. (One object
 * rather than one around the result: discovery keeps one per skill.)
 */
export interface CachedSkill extends Omit<InspectSkillResult, "diagnostics"> {
  /** Shared between entries (most have none), so never changed in place. */
  diagnostics: readonly Diagnostic[];
  /** `mtime:size:inode`, or "" when not known. */
  stamp: string;
  file: string;
  /** The frontmatter text the skill and diagnostics were made from. */
  text: string;
}

/** Cached skills by skill folder, in the order the scan found them (a `Map` is one). */
export interface LocalSkillCache extends Iterable<[directory: string, entry: CachedSkill]> {
  readonly size: number;
  /** When the scan that filled it began (epoch ms), if known: what its entries without a stamp were read after. */
  readonly startedAt?: number;
  get(directory: string): CachedSkill | undefined;
}

/** A {@link LocalSkillCache} that one scan fills, folder by folder. */
export interface LocalSkillCacheBuilder extends LocalSkillCache {
  /** The skill folders, in the order added. */
  readonly directories: readonly string[];
  /** Their entries, in the same order. */
  readonly entries: readonly CachedSkill[];
  /** Adds `directory`, which a scan reads once (a folder reached twice is entered once). */
  add(directory: string, entry: CachedSkill): void;
  /**
   * Builds the index by folder that {@link LocalSkillCache.get} reads, pausing whenever `slice` is
   * due: made by the first lookup in one go, at 100,000 folders it held the event loop for 35 to 76 ms.
   */
  indexInSlices(slice: TimeSlice): Promise<void>;
}

/**
 * An empty cache for a scan to fill. Its index by folder is built when a later scan first looks
 * an entry up: a cold scan of 10,000 skills spent 13 ms on a map that only a re-scan reads, and
 * a watched source re-scans only when something changed.
 */
export function createLocalSkillCache(): LocalSkillCacheBuilder {
  return new SkillCache();
}

// A class, so that `add`, called per skill, is one function for every scan (and keeps its optimised code).
class SkillCache implements LocalSkillCacheBuilder {
  readonly startedAt = Date.now();
  readonly directories: string[] = [];
  readonly entries: CachedSkill[] = [];
  #index: Map<string, CachedSkill> | undefined;

  get size(): number {
    return this.directories.length;
  }

  add(directory: string, entry: CachedSkill): void {
    this.directories.push(directory);
    this.entries.push(entry);
    this.#index?.set(directory, entry);
  }

  async indexInSlices(slice: TimeSlice): Promise<void> {
    if (this.#index) return;
    const index = new Map<string, CachedSkill>();
    for (let at = 0; at < this.directories.length; at++) {
      index.set(this.directories[at]!, this.entries[at]!);
      if (at % 256 === 255 && slice.due()) await slice.pause();
    }
    this.#index ??= index;
  }

  get(directory: string): CachedSkill | undefined {
    this.#index ??= new Map(this.directories.map((folder, at) => [folder, this.entries[at]!]));
    return this.#index.get(directory);
  }

  [Symbol.iterator](): Iterator<[string, CachedSkill]> {
    const pairs = this.directories.map((directory, at): [string, CachedSkill] => [directory, this.entries[at]!]);
    return pairs[Symbol.iterator]();
  }
}

// V8 drops the optimised code that reads this class's objects once none is left (after every
// scan, at the next garbage collection), and the next scan starts unoptimised. One object kept
// for the life of the process keeps their layout, and the code.
const _layoutKeeper = new SkillCache();

/** The stamp (`mtime:size:inode`) of `file`, or undefined when it does not exist or cannot be stat'ed. */
export function statStamp(file: string): string | undefined {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat && `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return undefined;
  }
}
