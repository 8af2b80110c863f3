import { resolve } from "node:path";
import { SkillsetError } from "../errors/skillset-error.js";
import { realOrResolved } from "../fs/link-target.js";
import { expandHome } from "../fs/expand-home.js";
import { findProjectRoot } from "../fs/project-root.js";
import { userSkillFolders } from "./user-skill-folders.js";

/** Options of `createLocalSource`. */
export interface LocalSourceOptions {
  /** A folder of skill folders, or one skill folder; a leading `~` or `~/` means the home folder. */
  path: string;
  /**
   * Find skills in nested folders at any depth below `path` (collections such as
   * `skills/.curated/<name>`), not only in its direct children.
   * @default false
   */
  recursive?: boolean;
  /** Deepest folder level searched when `recursive`. @default 6 */
  maxDepth?: number;
  /** Folders visited at most per scan when `recursive`; a warning says when it stopped. @default 10000 */
  maxDirectories?: number;
  /**
   * Further folders that symlinks may point into (`~` expanded as in `path`), besides the
   * default ones: `path` itself, the project it belongs to (the nearest folder above it with
   * `.git` or `package.json`, its `node_modules` included) and the user's skills folders
   * (`~/.claude/skills`, `~/.agents/skills`). A link whose real target lies anywhere else is
   * skipped with an error diagnostic.
   * @default []
   */
  allowedRoots?: string[];
  /**
   * Watch the folders (inotify/FSEvents) after the first re-scan, so later re-scans of an
   * unchanged source cost almost nothing. Without it every re-scan checks each file's stamp.
   * @default true
   */
  watch?: boolean;
  /** Names the source in diagnostics. @default `local:<absolute path>` */
  id?: string;
}

/** {@link LocalSourceOptions} with defaults applied and paths expanded and resolved. */
export interface LocalSourceSettings {
  /** The absolute source folder; `path` as given when it cannot be expanded. */
  root: string;
  /** False when `path` cannot be expanded (`~user/...`): then the source reads nothing. */
  readable: boolean;
  id: string;
  recursive: boolean;
  maxDepth: number;
  maxDirectories: number;
  watch: boolean;
  /** Real paths of the allowed roots: the default ones, then those given that could be expanded. */
  allowedRoots: string[];
  /** Paths that cannot be expanded (`~user/...`): reported on every scan and never read. */
  pathProblems: Array<{ path: string; message: string }>;
}

/**
 * Where a source's symlinks may lead by default, as real paths: the source folder, the project
 * it belongs to ({@link findProjectRoot}) and the user's skills folders. Installers link skills
 * between these (`.claude/skills/x -> ../../.agents/skills/x`, `.agents/skills/x ->
 * ../../node_modules/pkg/skills/x`, a project's skill linked to `~/.agents/skills`).
 */
export function defaultAllowedRoots(root: string): string[] {
  const project = findProjectRoot(root);
  return [root, ...(project === undefined ? [] : [project]), ...userSkillFolders()].map(realOrResolved);
}

/** Applies the defaults of {@link LocalSourceOptions}; a string is the `path`. */
export function resolveLocalSourceOptions(options: LocalSourceOptions | string): LocalSourceSettings {
  const given = typeof options === "string" ? { path: options } : options;
  const pathProblems: LocalSourceSettings["pathProblems"] = [];
  const expand = (path: string): string | undefined => {
    try {
      return expandHome(path);
    } catch (error) {
      if (!SkillsetError.isInstance(error)) throw error;
      pathProblems.push({ path, message: error.message });
      return undefined;
    }
  };
  const expandedPath = expand(given.path);
  const root = expandedPath === undefined ? given.path : resolve(expandedPath);
  const extraRoots = (given.allowedRoots ?? []).flatMap((path) => {
    const expanded = expand(path);
    return expanded === undefined ? [] : [realOrResolved(expanded)];
  });
  const allowedRoots = [...new Set([...(expandedPath === undefined ? [] : defaultAllowedRoots(root)), ...extraRoots])];
  return {
    root,
    readable: expandedPath !== undefined,
    id: given.id ?? `local:${root}`,
    recursive: given.recursive ?? false,
    maxDepth: given.maxDepth ?? 6,
    maxDirectories: given.maxDirectories ?? 10_000,
    watch: given.watch ?? true,
    allowedRoots,
    pathProblems,
  };
}
