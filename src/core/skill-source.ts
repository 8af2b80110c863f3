import type { Diagnostic } from "./diagnostic.js";
import type { SkillMetadata } from "./skill-file/skill-metadata.js";

/** Largest `SKILL.md` skillset reads: 10 MiB, far beyond any real skill, so a huge file cannot exhaust memory. */
export const MAX_SKILL_FILE_BYTES = 10 * 1024 * 1024;

/** What a source found: its skills' metadata and the problems, with a version that changes when they do. */
export interface SkillSourceScan {
  /** Equal versions from the same source mean an identical scan, so callers may reuse derived data. */
  version: string;
  skills: readonly SkillMetadata[];
  diagnostics: readonly Diagnostic[];
}

/** Bounds for listing a skill's files. */
export interface FileListLimits {
  /** Folder levels below the skill folder to descend into. */
  maxDepth: number;
  /** Files to return at most. */
  maxFiles: number;
}

/** One file in a skill's folder. */
export interface SkillFile {
  /** Location as the source names it (absolute for local folders), usable with the source's own tools. */
  path: string;
  /** Path below the skill folder, with `/` separators, e.g. `scripts/run.py`. */
  relativePath: string;
  /** Size in bytes, when the source knows it. */
  size?: number;
}

/** The files of one skill, and whether the listing stopped at a limit. */
export interface SkillFileListing {
  files: SkillFile[];
  truncated: boolean;
}

/**
 * Where skills come from. Implementations: local folders (`skillset/node`), any deepagents
 * backend, and memory. Sources report problems as diagnostics instead of throwing; only
 * `readSkill` throws, with a {@link SkillsetError} whose message the agent can act on.
 */
export interface SkillSource {
  readonly specificationVersion: "v1";
  /** Names the source in diagnostics and in `SkillMetadata.source`, e.g. `local:/home/me/skills`. */
  readonly id: string;
  /** Lists the skills. Cheap when nothing changed since the previous call. */
  scan(): Promise<SkillSourceScan>;
  /** Reads a skill's whole `SKILL.md`, at most {@link MAX_SKILL_FILE_BYTES}. */
  readSkill(skill: SkillMetadata): Promise<Uint8Array>;
  /** Lists the files under a skill's folder, depth- and count-bounded. */
  listFiles(skill: SkillMetadata, limits: FileListLimits): Promise<SkillFileListing>;
  /**
   * Reads one file below a skill's folder. `relativePath` has been checked with
   * `checkResourcePath`; the source still refuses anything that resolves outside the folder
   * (symlinks), special files and files over `maxBytes`, with a {@link SkillsetError}.
   */
  readFile?(skill: SkillMetadata, relativePath: string, maxBytes: number): Promise<Uint8Array>;
  /**
   * `false`: the skills' commands (scripts, dynamic context) are never run, whatever the agent
   * allows, e.g. for skills that are content from elsewhere. @default true
   */
  readonly runsCommands?: boolean;
  /** Releases watchers or connections, if the source holds any. */
  close?(): void;
}
