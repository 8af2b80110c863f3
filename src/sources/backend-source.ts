import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../errors/skillset-error.js";
import { collectSkills, inspectSkillFile } from "../core/catalog/collect-skills.js";
import type { InspectSkillResult } from "../core/skill-file/inspect-skill.js";
import { pathSeparator } from "../core/text/path-separator.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import {
  MAX_SKILL_FILE_BYTES,
  type FileListLimits,
  type SkillFile,
  type SkillFileListing,
  type SkillSource,
  type SkillSourceScan,
} from "../core/skill-source.js";
import { isInsideResolvedFolder } from "../fs/folder-prefix.js";
import {
  downloadAll,
  isFolder,
  isProbe,
  listFolder,
  listSkillFiles,
  type BackendFileInfo,
  type MaybePromise,
  type SkillsBackend,
} from "./skills-backend.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

export type { BackendFileInfo, SkillsBackend } from "./skills-backend.js";

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

/** The keys of {@link BackendSourceOptions}; sources that extend them (the snapshot source) add theirs. */
export const BACKEND_SOURCE_OPTIONS = {
  backend: true,
  path: true,
  recursive: true,
  id: true,
} as const satisfies KnownOptions<BackendSourceOptions>;

/**
 * A source over any deepagents backend: FilesystemBackend, StateBackend, StoreBackend (a
 * LangGraph store), CompositeBackend or a sandbox. Each scan costs one listing call; the
 * `SKILL.md` files whose size or modification time changed are fetched in one batched
 * `downloadFiles` call, the rest is reused.
 */
export function createBackendSource(options: BackendSourceOptions): SkillSource {
  refuseUnknownOptions("createBackendSource", options, BACKEND_SOURCE_OPTIONS);
  const { root, separator, getBackend } = backendPlace(options);
  const id = options.id ?? `backend:${root}`;
  const scan = backendScanner({ root, separator, id, recursive: options.recursive ?? false });

  return {
    specificationVersion: "v1",
    id,
    scan: async () => scan(await getBackend()),
    async readSkill(skill) {
      if (!isContained(skill.path, root)) throw new SkillsetError("cannot-read", `${skill.path} is outside ${root}`);
      const content = (await downloadAll(await getBackend(), [skill.path])).get(skill.path);
      if (content === undefined) throw new SkillsetError("cannot-read", `Failed to read ${skill.path}`);
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
    listFiles: async (skill, limits) => listBackendSkillFiles(await getBackend(), skill, separator, limits),
  };
}

/** A backend source's folder (ending in its separator), that separator, and its backend when asked for. */
export function backendPlace(options: BackendSourceOptions): {
  root: string;
  separator: string;
  getBackend: () => Promise<SkillsBackend>;
} {
  const separator = pathSeparator(options.path);
  const root = /[\\/]$/.test(options.path) ? options.path : `${options.path}${separator}`;
  const getBackend = async () => (typeof options.backend === "function" ? await options.backend() : options.backend);
  return { root, separator, getBackend };
}

/** Where a backend source scans: its folder (ending in its separator), the separator and its id. */
interface ScanPlace {
  root: string;
  separator: string;
  id: string;
  recursive: boolean;
}

// A scan of the backend at its place, reusing what the previous scan read when its stamp is unchanged.
function backendScanner({
  root,
  separator,
  id,
  recursive,
}: ScanPlace): (backend: SkillsBackend) => Promise<SkillSourceScan> {
  let cache = new Map<string, { stamp: string; result: InspectSkillResult }>();
  let last: SkillSourceScan | undefined;
  let lastSignature = "";
  let version = 0;

  return async (backend) => {
    const diagnostics: Diagnostic[] = [];
    let entries: BackendFileInfo[];
    try {
      entries = await listSkillFiles(backend, root, separator, recursive);
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
  };
}

// The files of a skill's folder on the backend, breadth-first, within `limits`.
async function listBackendSkillFiles(
  backend: SkillsBackend,
  skill: SkillMetadata,
  separator: string,
  limits: FileListLimits,
): Promise<SkillFileListing> {
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
    diagnostics: [{ severity: "error", code: "cannot-read", file: path, message: `Failed to read ${path}`, source }],
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

/**
 * Whether `path` is below `folder` (which ends in its separator). Backend paths are the backend's
 * to resolve, so a `.` or `..` segment below `folder` is refused rather than resolved here.
 */
export function isContained(path: string, folder: string): boolean {
  return (
    isInsideResolvedFolder(folder, path, folder.at(-1)!) &&
    !path
      .slice(folder.length)
      .split(/[\\/]/)
      .some((part) => part === ".." || part === ".")
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
