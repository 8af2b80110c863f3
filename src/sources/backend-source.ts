import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../core/errors.js";
import { collectSkills, inspectSkillFile } from "../core/catalog/collect-skills.js";
import type { InspectSkillResult } from "../core/skill-file/inspect-skill.js";
import { pathSeparator } from "../core/text/path-separator.js";
import { skillDirectory } from "../core/skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES, type SkillFile, type SkillSource, type SkillSourceScan } from "../core/skill-source.js";

/** A file entry as deepagents backends list them: `path` absolute, or a name relative to the folder listed. */
export interface BackendFileInfo {
  path: string;
  is_dir?: boolean;
  size?: number;
  modified_at?: string;
}

type MaybePromise<T> = T | Promise<T>;

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

/** Options of {@link createBackendSource}. */
export interface BackendSourceOptions {
  /** The backend, or a function that returns it (for backends bound to a run, like deepagents' StateBackend). */
  backend: SkillsBackend | (() => MaybePromise<SkillsBackend>);
  /** The folder on the backend that holds skill folders, e.g. `/skills/` (or `C:\\skills\\user` on a backend with Windows paths). */
  path: string;
  /** Find skills at any depth below `path`, not only in its direct children. @default false */
  recursive?: boolean;
  /** Names the source in diagnostics. @default `backend:<path>` */
  id?: string;
}

/**
 * A source over any deepagents backend: FilesystemBackend, StateBackend, StoreBackend (a
 * LangGraph store), CompositeBackend or a sandbox. Each scan costs one listing call; the
 * `SKILL.md` files whose size or modification time changed are fetched in one batched
 * `downloadFiles` call, the rest is reused.
 */
export function createBackendSource(options: BackendSourceOptions): SkillSource {
  const separator = pathSeparator(options.path);
  const root = /[\\/]$/.test(options.path) ? options.path : `${options.path}${separator}`;
  const id = options.id ?? `backend:${root}`;
  const getBackend = async () => (typeof options.backend === "function" ? await options.backend() : options.backend);
  let cache = new Map<string, { stamp: string; result: InspectSkillResult }>();
  let last: SkillSourceScan | undefined;
  let lastSignature = "";
  let version = 0;

  return {
    specificationVersion: "v1",
    id,
    async scan() {
      const backend = await getBackend();
      const diagnostics: Diagnostic[] = [];
      let entries: BackendFileInfo[];
      try {
        entries = await listSkillFiles(backend, root, separator, options.recursive ?? false);
      } catch (error) {
        entries = [];
        diagnostics.push({
          severity: "warning",
          code: "source-unreadable",
          file: root,
          source: id,
          message: `Cannot list ${root}: ${describe(error)}`,
        });
      }
      const stamped = entries
        .filter((entry) => isContained(entry.path, root))
        .map((entry) => ({
          path: entry.path,
          size: entry.size,
          probe: isProbe(entry),
          stamp: entry.size !== undefined && entry.modified_at ? `${entry.modified_at}:${entry.size}` : "",
        }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

      const next = new Map<string, { stamp: string; result: InspectSkillResult }>();
      const toFetch: Array<{ path: string; stamp: string; probe: boolean }> = [];
      for (const entry of stamped) {
        const cached = cache.get(entry.path);
        if (cached && entry.stamp !== "" && cached.stamp === entry.stamp) next.set(entry.path, cached);
        // The listing already says it is too large: skip it without downloading it.
        else if (entry.size !== undefined && entry.size > MAX_SKILL_FILE_BYTES)
          next.set(entry.path, { stamp: entry.stamp, result: tooLarge(entry.path, id) });
        else toFetch.push(entry);
      }
      const fetched =
        toFetch.length > 0
          ? await downloadAll(
              backend,
              toFetch.map((entry) => entry.path),
            )
          : new Map<string, Uint8Array | string>();
      for (const { path, stamp, probe } of toFetch) {
        const content = fetched.get(path);
        // A folder the backend could not list, and with no SKILL.md to read, holds no skill.
        if (content === undefined && probe) continue;
        const result =
          content === undefined
            ? readFailure(path, id)
            : overSizeLimit(content)
              ? tooLarge(path, id)
              : inspectSkillFile(content, path, id);
        next.set(path, { stamp: stamp || contentStamp(content), result });
      }
      cache = next;

      const skills = collectSkills(
        [...next.values()].map((entry) => entry.result),
        id,
        diagnostics,
      );
      const signature =
        [...next].map(([path, { stamp }]) => `${path}\0${stamp}`).join("\n") +
        "\n" +
        diagnostics.map((d) => d.message).join("\n");
      if (last && signature === lastSignature) return last;
      lastSignature = signature;
      last = { version: `${id}#${++version}`, skills, diagnostics };
      return last;
    },
    async readSkill(skill) {
      if (!isContained(skill.path, root)) throw new SkillsetError("read-failed", `${skill.path} is outside ${root}`);
      const content = (await downloadAll(await getBackend(), [skill.path])).get(skill.path);
      if (content === undefined) throw new SkillsetError("read-failed", `Failed to read ${skill.path}`);
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      if (bytes.byteLength > MAX_SKILL_FILE_BYTES) {
        throw new SkillsetError("too-large", `${skill.path} exceeds the maximum size (${MAX_SKILL_FILE_BYTES} bytes)`);
      }
      return bytes;
    },
    async readFile(skill, relativePath, maxBytes) {
      const path = `${skillDirectory(skill)}${separator}${separator === "/" ? relativePath : relativePath.replaceAll("/", separator)}`;
      if (!isContained(path, root))
        throw new SkillsetError("outside-skill", `${relativePath} is outside the skill's folder; refused`);
      const content = (await downloadAll(await getBackend(), [path])).get(path);
      if (content === undefined)
        throw new SkillsetError("not-found", `${relativePath} does not exist in the skill's folder`);
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      if (bytes.byteLength > maxBytes)
        throw new SkillsetError("too-large", `${relativePath} is larger than ${maxBytes} bytes`);
      return bytes;
    },
    async listFiles(skill, limits) {
      const backend = await getBackend();
      const base = `${skillDirectory(skill)}${separator}`;
      const files: SkillFile[] = [];
      let truncated = false;
      let level = [base];
      for (let depth = 0; depth <= limits.maxDepth && level.length > 0; depth++) {
        const nextLevel: string[] = [];
        for (const folder of level) {
          for (const entry of await listFolder(backend, folder)) {
            if (!isContained(entry.path, base)) continue;
            const relativePath = entry.path
              .slice(base.length)
              .replace(/[\\/]$/, "")
              .replaceAll(separator, "/");
            if (isFolder(entry)) {
              if (depth < limits.maxDepth) nextLevel.push(entry.path);
              else truncated = true;
            } else if (entry.path !== skill.path) {
              if (files.length >= limits.maxFiles) return { files, truncated: true };
              files.push({ path: entry.path, relativePath, ...(entry.size === undefined ? {} : { size: entry.size }) });
            }
          }
        }
        level = nextLevel.sort();
      }
      return { files, truncated };
    },
  };
}

async function listSkillFiles(
  backend: SkillsBackend,
  root: string,
  separator: string,
  recursive: boolean,
): Promise<BackendFileInfo[]> {
  if (recursive && (backend.glob || backend.globInfo)) {
    const result = backend.glob
      ? await backend.glob("**/SKILL.md", root)
      : await backend.globInfo!("**/SKILL.md", root);
    return unwrap(result)
      .map((file) => ({ ...file, path: absolutePath(root, file.path.replaceAll("/", separator)) }))
      .filter((file) => file.path.endsWith(`${separator}SKILL.md`));
  }
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

// Marks a SKILL.md guessed from a folder that could not be listed: missing, it is no error.
const PROBE = Symbol("probe");
const isProbe = (entry: BackendFileInfo) => (entry as { [PROBE]?: boolean })[PROBE] === true;

// Entries come back with absolute paths or as names relative to `folder` (`web-research/`);
// folders end with the folder's separator either way.
async function listFolder(backend: SkillsBackend, folder: string): Promise<BackendFileInfo[]> {
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

function isFolder(entry: BackendFileInfo): boolean {
  return entry.is_dir === true || /[\\/]$/.test(entry.path);
}

function unwrap(result: { files?: BackendFileInfo[]; error?: string } | BackendFileInfo[]): BackendFileInfo[] {
  if (Array.isArray(result)) return result;
  if (result.error) throw new SkillsetError("read-failed", result.error);
  return result.files ?? [];
}

async function downloadAll(backend: SkillsBackend, paths: string[]): Promise<Map<string, Uint8Array | string>> {
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

function tooLarge(path: string, source: string): InspectSkillResult {
  return {
    diagnostics: [
      {
        severity: "error",
        code: "too-large",
        file: path,
        message: `${path} exceeds the maximum size (${MAX_SKILL_FILE_BYTES} bytes)`,
        source,
      },
    ],
  };
}

// Text from a backend counts in UTF-8 bytes, as the file would; it is encoded only when it might be over.
function overSizeLimit(content: Uint8Array | string): boolean {
  if (typeof content !== "string") return content.byteLength > MAX_SKILL_FILE_BYTES;
  return (
    content.length * 3 > MAX_SKILL_FILE_BYTES && new TextEncoder().encode(content).byteLength > MAX_SKILL_FILE_BYTES
  );
}

function readFailure(path: string, source: string): InspectSkillResult {
  return {
    diagnostics: [{ severity: "error", code: "read-failed", file: path, message: `Failed to read ${path}`, source }],
  };
}

// Without size and time from the backend, the content itself tells whether the file changed.
function contentStamp(content: Uint8Array | string | undefined): string {
  if (content === undefined) return "missing";
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  let hash = 2166136261;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 16777619);
  return `fnv:${bytes.byteLength}:${(hash >>> 0).toString(16)}`;
}

function isContained(path: string, root: string): boolean {
  return (
    path.startsWith(root) &&
    !path
      .slice(root.length)
      .split(/[\\/]/)
      .some((part) => part === ".." || part === ".")
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
