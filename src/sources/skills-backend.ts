import { SkillsetError } from "../errors/skillset-error.js";
import { pathSeparator } from "../core/text/path-separator.js";

// Talking to a deepagents backend: its protocol (both generations), listing folders and reading
// files through whichever calls it has.

/** A file entry as deepagents backends list them: `path` absolute, or a name relative to the folder listed. */
export interface BackendFileInfo {
  path: string;
  is_dir?: boolean;
  size?: number;
  modified_at?: string;
}

/** A value, or a promise of it: backends may answer either way. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The part of a deepagents backend skillset uses. Both protocol generations work: `ls` (1.9+)
 * or `lsInfo` (older), `glob` or `globInfo`, and `downloadFiles` or `readRaw` / `read`.
 */
export interface SkillsBackend {
  ls?(path: string): MaybePromise<{ files?: BackendFileInfo[]; error?: string } | BackendFileInfo[]>;
  lsInfo?(path: string): MaybePromise<BackendFileInfo[]>;
  glob?(
    pattern: string,
    path?: string,
  ): MaybePromise<{ files?: BackendFileInfo[]; error?: string } | BackendFileInfo[]>;
  globInfo?(pattern: string, path?: string): MaybePromise<BackendFileInfo[]>;
  downloadFiles?(
    paths: string[],
  ): MaybePromise<Array<{ path: string; content: Uint8Array | null; error: string | null }>>;
  readRaw?(path: string): MaybePromise<unknown>;
  read?(path: string, offset?: number, limit?: number): MaybePromise<unknown>;
}

/**
 * The `SKILL.md` entries below `root` (which ends in `separator`): `root`'s own, else its
 * children's, or at any depth with `recursive` when the backend can glob. A child folder the
 * backend cannot list gives a guessed entry (see {@link isProbe}).
 */
export async function listSkillFiles(
  backend: SkillsBackend,
  root: string,
  separator: string,
  recursive: boolean,
): Promise<BackendFileInfo[]> {
  if (recursive && canGlob(backend))
    return (await globFiles(backend, "**/SKILL.md", root, separator)).filter((file) =>
      file.path.endsWith(`${separator}SKILL.md`),
    );
  const rootEntries = await listFolder(backend, root);
  const direct = rootEntries.find((entry) => entry.path === `${root}SKILL.md`);
  if (direct) return [direct];
  const found: BackendFileInfo[] = [];
  for (const folder of rootEntries.filter(isFolder)) {
    let entries: BackendFileInfo[];
    try {
      entries = await listFolder(backend, folder.path);
    } catch {
      // Some backends list only the folders they were told about (deepagents' own test backend):
      // read the SKILL.md directly, as deepagents does.
      found.push({ path: `${folder.path}SKILL.md`, [PROBE]: true } as BackendFileInfo);
      continue;
    }
    const skillFile = entries.find((entry) => entry.path === `${folder.path}SKILL.md`);
    if (skillFile) found.push(skillFile);
    // A folder that lists as empty may still serve its SKILL.md (deepagents' read() test backend).
    else if (entries.length === 0) found.push({ path: `${folder.path}SKILL.md`, [PROBE]: true } as BackendFileInfo);
  }
  return found;
}

/** Whether the backend can list a folder's files at any depth in one call. */
export function canGlob(backend: SkillsBackend): boolean {
  return backend.glob !== undefined || backend.globInfo !== undefined;
}

/** The files below `root` (which ends in `separator`) that match `pattern`, with absolute paths. */
export async function globFiles(
  backend: SkillsBackend,
  pattern: string,
  root: string,
  separator: string,
): Promise<BackendFileInfo[]> {
  const result = backend.glob ? await backend.glob(pattern, root) : await backend.globInfo!(pattern, root);
  return unwrap(result).map((file) => ({ ...file, path: absolutePath(root, file.path.replaceAll("/", separator)) }));
}

const PROBE = Symbol("probe");
/** Whether `entry` is a SKILL.md guessed from a folder that could not be listed: missing, it is no error. */
export const isProbe = (entry: BackendFileInfo) => (entry as { [PROBE]?: boolean })[PROBE] === true;

/**
 * The entries of `folder`, with absolute paths (backends answer with those or with names
 * relative to the folder, `web-research/`); folders end with the folder's separator either way.
 */
export async function listFolder(backend: SkillsBackend, folder: string): Promise<BackendFileInfo[]> {
  let entries: BackendFileInfo[];
  if (backend.ls) entries = unwrap(await backend.ls(folder));
  else if (backend.lsInfo) entries = await backend.lsInfo(folder);
  else throw new SkillsetError("backend-unsupported", "The backend has neither ls nor lsInfo");
  const separator = pathSeparator(folder);
  return entries.map((entry) => {
    const path = absolutePath(folder, entry.path);
    const folderPath = entry.is_dir || /[\\/]$/.test(path) ? path.replace(/[\\/]?$/, separator) : path;
    return folderPath === entry.path ? entry : { ...entry, path: folderPath };
  });
}

function absolutePath(folder: string, path: string): string {
  return path.startsWith(folder) || path.startsWith("/") || /^([A-Za-z]:)?\\/.test(path) || /^[A-Za-z]:\//.test(path)
    ? path
    : `${folder}${path}`;
}

/** Whether a listed entry is a folder. */
export function isFolder(entry: BackendFileInfo): boolean {
  return entry.is_dir === true || /[\\/]$/.test(entry.path);
}

function unwrap(result: { files?: BackendFileInfo[]; error?: string } | BackendFileInfo[]): BackendFileInfo[] {
  if (Array.isArray(result)) return result;
  if (result.error) throw new SkillsetError("cannot-read", result.error);
  return result.files ?? [];
}

/** The contents of those `paths` the backend could read, by path: one batched call when it has `downloadFiles`. */
export async function downloadAll(backend: SkillsBackend, paths: string[]): Promise<Map<string, Uint8Array | string>> {
  const contents = new Map<string, Uint8Array | string>();
  if (backend.downloadFiles) {
    for (const response of await backend.downloadFiles(paths)) {
      if (response.content && !response.error) contents.set(response.path, response.content);
    }
    return contents;
  }
  for (const path of paths) {
    const content = await readOne(backend, path);
    if (content !== undefined) contents.set(path, content);
  }
  return contents;
}

// readRaw gives exact content; `read` is the fallback (raw text on 1.9+ filesystem/state/store backends).
async function readOne(backend: SkillsBackend, path: string): Promise<string | Uint8Array | undefined> {
  const raw = backend.readRaw ? await backend.readRaw(path) : undefined;
  const data =
    (raw as { data?: { content?: unknown } } | undefined)?.data ?? (raw as { content?: unknown } | undefined);
  const content = data?.content;
  if (typeof content === "string" || content instanceof Uint8Array) return content;
  if (Array.isArray(content)) return content.join("\n");
  if (!backend.read) return undefined;
  const read = await backend.read(path, 0, Number.MAX_SAFE_INTEGER);
  if (typeof read === "string") return read.startsWith("Error:") ? undefined : read;
  const text = (read as { content?: unknown; error?: string }).content;
  return typeof text === "string" || text instanceof Uint8Array ? text : undefined;
}
