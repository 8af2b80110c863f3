import { pathSeparator } from "../text/path-separator.js";

/**
 * What the catalog knows about one skill: its frontmatter, typed. The first fields have the
 * names and shape deepagents uses for `skillsMetadata`, so state written by either is compatible.
 */
export interface SkillMetadata {
  /** The skill's name, trimmed and NFKC-normalised. Unique within a catalog. */
  name: string;
  /** What the skill does and when to use it. */
  description: string;
  /** Location of the `SKILL.md`, as the source names it (an absolute path for local folders). */
  path: string;
  license?: string;
  compatibility?: string;
  /** The `metadata` mapping; values are strings. */
  metadata: Record<string, string>;
  /** `allowed-tools`, split into entries, whether written as a space- or comma-separated string or a YAML list. */
  allowedTools: string[];
  /** Claude Code's `argument-hint`. */
  argumentHint?: string;
  /** Claude Code's `arguments`: names of positional arguments, so `$name` stands for one. */
  argumentNames?: string[];
  /** Claude Code's `disable-model-invocation`: only a user may invoke the skill. */
  disableModelInvocation?: boolean;
  /** Claude Code's `user-invocable`: whether a user may invoke it as a command. */
  userInvocable?: boolean;
  /** Claude Code's `model`: the model to use while the skill runs. */
  model?: string;
  /** Claude Code's `context` (e.g. `fork`: run in a subagent). */
  context?: string;
  /** Claude Code's `agent`: which subagent type runs a forked skill. */
  agent?: string;
  /** Claude Code's `hooks`, kept as parsed for later use. */
  hooks?: unknown;
  /** Id of the source the skill came from. */
  source: string;
  /**
   * Where the `SKILL.md` really is, when that differs from `path`: it was reached through a
   * symbolic link (its folder, the file, or a folder above). Local sources only. Two skills with
   * the same real file are one skill reached twice, not two skills.
   */
  realPath?: string;
  /** The npm package the skill was shipped in, and its version: skills from `npm:` sources only. */
  package?: SkillPackage;
}

/** The npm package a skill came in, as its `package.json` names it. */
export interface SkillPackage {
  name: string;
  /** `version` of the package's `package.json`; absent when it has none. */
  version?: string;
}

/** The folder that holds a skill's `SKILL.md`. */
export function skillDirectory(skill: Pick<SkillMetadata, "path">): string {
  const slash = skill.path.lastIndexOf(pathSeparator(skill.path));
  return slash <= 0 ? skill.path.slice(0, slash + 1) || "." : skill.path.slice(0, slash);
}

/** How results name a skill's `SKILL.md` (`file`) and its folder (`folder`): the engine's `skillLocation`. */
export interface SkillLocation {
  file: string;
  folder: string;
}
