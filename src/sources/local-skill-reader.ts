import { lstatSync } from "node:fs";
import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../errors/skillset-error.js";
import { inspectSkill, type InspectSkillInput } from "../core/skill-file/inspect-skill.js";
import { ParentFolderNotes } from "../core/catalog/skill-parent-folder.js";
import { readSkillHeadWithinRoots } from "./allowed-roots.js";
import { readSkillHeadsAhead, skillHeadReadAhead } from "./read-skill-head.js";
import {
  createLocalSkillCache,
  statStamp,
  type CachedSkill,
  type LocalSkillCache,
  type LocalSkillCacheBuilder,
} from "./local-skill-cache.js";

/** The names a skill file may have, the standard one first. */
export const SKILL_FILES: readonly string[] = ["SKILL.md", "skill.md"];

/** Inputs of {@link createLocalSkillReader}: one scan's view of the source. */
export interface LocalSkillReaderOptions {
  /** What the previous scan read; entries whose file is unchanged are reused as they are. */
  previous: LocalSkillCache;
  /** Compare each file's stamp with `previous` before reading it (every scan after the first). */
  usePolling: boolean;
  /** Names the source in diagnostics. */
  sourceId: string;
  /** Real folders a symlinked `SKILL.md` may point into. */
  allowedRoots: readonly string[];
}

/** Reads the skill folders of one scan into a new cache. */
export interface LocalSkillReader {
  /** Every skill folder read so far, with its entry, in the order read. */
  readonly entries: LocalSkillCacheBuilder;
  /** How many of `entries` are the previous scan's entry of their folder, kept as unchanged. */
  readonly reused: number;
  /**
   * Reads the `SKILL.md` (or `skill.md`) of `directory` into `entries`; false when the folder
   * has neither, so it is no skill folder. A file that cannot be used becomes an entry whose
   * result is an error diagnostic naming it. `realDirectory` is the folder's real path: when
   * the file's real path differs from its path, the skill's `realPath` says where it is.
   * `name` is the folder's name (by default the last part of `directory`).
   */
  readSkillAt(directory: string, realDirectory: string, name?: string): boolean;
  /**
   * Says that `readSkillAt(folders[at], …)` comes next, and then the folders after it, in order,
   * so that a cold scan can read their files in a run (a polling scan stats each file first).
   */
  readAhead(folders: readonly string[], at: number): void;
}

/**
 * A reader for one scan. Cold scans skip the stamp (one fstat per file); polling scans stat
 * each file and reuse the previous entry when its stamp is the same, or when only the body
 * changed, so an unchanged skill keeps its entry object.
 */
export function createLocalSkillReader(options: LocalSkillReaderOptions): LocalSkillReader {
  return new SkillReader(options);
}

// A class rather than closures made per scan: its method is one function for every scan, so the
// optimised code V8 made of it in one scan serves the next (a new closure starts unoptimised).
class SkillReader implements LocalSkillReader {
  readonly entries: LocalSkillCacheBuilder = createLocalSkillCache();
  reused = 0;
  readonly #options: LocalSkillReaderOptions;
  // One input for every skill of the scan, refilled per skill (inspectSkill keeps no reference to
  // it): discovery reads thousands of skills, and an object each was garbage for every one.
  readonly #input: InspectSkillInput;
  // The catalog's groups read each skill's parent folder from here, not from its path.
  readonly #parents = new ParentFolderNotes();

  constructor(options: LocalSkillReaderOptions) {
    this.#options = options;
    this.#input = { text: "", file: "", directoryName: "", source: options.sourceId };
  }

  readSkillAt(
    directory: string,
    realDirectory: string,
    name = directory.slice(directory.lastIndexOf("/") + 1),
  ): boolean {
    const { previous, usePolling } = this.#options;
    const { entries } = this;
    // An index, not for...of: the interpreter allocates an iterator and its results per folder.
    for (let at = 0; at < SKILL_FILES.length; at++) {
      const fileName = SKILL_FILES[at]!;
      // A cold scan's run has read this folder's SKILL.md already.
      const ahead = usePolling || at !== 0 ? undefined : skillHeadReadAhead(directory);
      if (ahead === "absent") continue;
      // A string joined here is pieces until something reads it whole; the one a run opened is
      // flat. Kept as the skill's path, it spares every later pass over 100,000 paths (the
      // catalog's groups) a walk through the pieces.
      const file = ahead === undefined ? `${directory}/${fileName}` : ahead.file;
      // A cold scan has nothing cached: no lookup (it would hash the folder's path).
      const cached = previous.size === 0 ? undefined : previous.get(directory);
      if (usePolling && cached && cached.stamp === "") {
        const realFile = realDirectory === directory ? file : `${realDirectory}/${fileName}`;
        const stamp = unchangedSince(file, realFile, cached, previous.startedAt);
        if (stamp !== undefined) return this.#keep(directory, cached, stamp);
      }
      // An entry of a cold scan has no stamp to compare: its file is read again, unless it has
      // not changed since before that scan (above).
      if (usePolling && cached && cached.stamp !== "") {
        const stamp = statStamp(file);
        if (stamp === cached.stamp) return this.#keep(directory, cached);
        // No file to stat: read anyway, so a link whose target has gone is reported as such.
      }
      try {
        // Cold scans skip the stamp (one fstat per file); the first poll records it.
        const head: SkillHead = ahead ?? readSkillHeadWithinRoots(file, usePolling, this.#options.allowedRoots);
        if (head === undefined) continue;
        const realPath = head.target ?? (realDirectory === directory ? file : `${realDirectory}/${fileName}`);
        if (
          cached &&
          cached.file === file &&
          cached.text === head.text &&
          (cached.skill?.realPath ?? file) === realPath
        ) {
          // Only the body changed, or the stamp was not known yet: same skill, same entry.
          return this.#keep(directory, cached, head.stamp ?? "");
        }
        entries.add(directory, this.#inspect(head, file, fileName, name, realPath));
        return true;
      } catch (error) {
        if (!SkillsetError.isInstance(error)) throw error;
        // The same problem as last time keeps its entry, so an unchanged source stays unchanged.
        if (cached && cached.text === "" && cached.diagnostics[0]?.message === error.message)
          return this.#keep(directory, cached);
        entries.add(directory, {
          stamp: statStamp(file) ?? "",
          file,
          text: "",
          diagnostics: [
            { severity: "error", code: error.code, file, message: error.message, source: this.#options.sourceId },
          ],
        });
        return true;
      }
    }
    return false;
  }

  readAhead(folders: readonly string[], at: number): void {
    if (!this.#options.usePolling) readSkillHeadsAhead(folders, at);
  }

  // An unchanged skill keeps its entry object, with its new stamp when `stamp` is given.
  #keep(directory: string, cached: CachedSkill, stamp?: string): true {
    if (stamp !== undefined) cached.stamp = stamp;
    this.entries.add(directory, cached);
    this.reused++;
    return true;
  }

  // The entry of a skill file read as `head`.
  #inspect(
    head: { text: string; stamp?: string },
    file: string,
    fileName: string,
    name: string,
    realPath: string,
  ): CachedSkill {
    const input = this.#input;
    input.text = head.text;
    input.file = file;
    input.directoryName = name;
    const result = inspectSkill(input);
    if (result.skill) {
      if (realPath !== file) result.skill.realPath = realPath;
      this.#parents.note(result.skill);
    }
    if (fileName !== "SKILL.md") {
      result.diagnostics.unshift({
        severity: "warning",
        code: "lowercase-file",
        file,
        message: "Name the file SKILL.md; skill.md is accepted but not standard",
        source: input.source,
      });
    }
    // Nearly every skill has no diagnostic: they share one empty list rather than keep one each.
    const diagnostics = result.diagnostics.length === 0 ? NO_DIAGNOSTICS : result.diagnostics;
    return { stamp: head.stamp ?? "", file, text: head.text, skill: result.skill, diagnostics };
  }
}

type SkillHead = ReturnType<typeof readSkillHeadWithinRoots>;

const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

// Timestamps are as coarse as 2 s on some file systems, and a kernel may stamp a change a tick
// before the clock a scan reads: a file changed this close to the scan's start is read again.
const RACY_MS = 2000;

/**
 * The stamp of `file` when the cold scan that read it as `cached` (started at `startedAt`, epoch
 * ms) read what it holds now: it is still reached at `realFile`, is a regular file itself, not a
 * link, and its inode has not changed since before that scan began (its ctime, which every write,
 * rename onto it or change of times moves to the present, is older). Then a re-scan need not read
 * it again: the second scan of a watched source, which follows the cold one at once, checks a
 * stamp per file rather than reading 100,000 of them again. Undefined when it must be read.
 */
function unchangedSince(
  file: string,
  realFile: string,
  cached: CachedSkill,
  startedAt: number | undefined,
): string | undefined {
  if (startedAt === undefined || cached.file !== file || cached.text === "") return undefined;
  // An entry without a skill (its frontmatter is invalid) does not say where it was reached.
  if ((cached.skill ? (cached.skill.realPath ?? file) : file) !== realFile) return undefined;
  try {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.ctimeMs >= startedAt - RACY_MS) return undefined;
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

// V8 drops the optimised code that reads this class's objects once none is left (after every
// scan, at the next garbage collection), and the next scan starts unoptimised. One object kept
// for the life of the process keeps their layout, and the code.
const _layoutKeeper = new SkillReader({
  previous: createLocalSkillCache(),
  usePolling: false,
  sourceId: "",
  allowedRoots: [],
});

/**
 * Whether `directory` may hold a `SKILL.md` (or `skill.md`), asked of a folder that usually holds
 * none (a source's own folder) before reading it: lstat says "missing" without an exception. The
 * two failed opens per scan made V8 compile the reader against Node's error objects, and each
 * garbage collection that freed those discarded the compiled reader. True when unsure, so that
 * reading the folder reports the problem.
 */
export function mayHoldSkillFile(directory: string): boolean {
  try {
    return SKILL_FILES.some(
      (fileName) => lstatSync(`${directory}/${fileName}`, { throwIfNoEntry: false }) !== undefined,
    );
  } catch {
    return true;
  }
}
