import { SkillsetError } from "../errors/skillset-error.js";
import { collectSkills, inspectSkillFile } from "../core/catalog/collect-skills.js";
import { skillDirectory } from "../core/skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES, type SkillFile, type SkillSource, type SkillSourceScan } from "../core/skill-source.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { isInsideResolvedFolder } from "../fs/folder-prefix.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

/** A source whose files live in memory: for tests, and for skills built at run time. */
export interface MemorySource extends SkillSource {
  /** Adds or replaces a file; a path ending in `/SKILL.md` defines a skill. */
  write(path: string, content: string | Uint8Array): void;
  /** Removes a file, or every file below a folder. */
  remove(path: string): void;
}

/** Options of {@link createMemorySource}. */
export interface MemorySourceOptions {
  /** Files by path, e.g. `{ "/skills/pdf/SKILL.md": "---\nname: pdf\n..." }`. */
  files?: Record<string, string | Uint8Array>;
  /** @default "memory" */
  id?: string;
}

const MEMORY_SOURCE_OPTIONS = { files: true, id: true } as const satisfies KnownOptions<MemorySourceOptions>;

/** Creates an in-memory {@link SkillSource}; every write or removal is seen by the next scan. */
export function createMemorySource(options: MemorySourceOptions = {}): MemorySource {
  refuseUnknownOptions("createMemorySource", options, MEMORY_SOURCE_OPTIONS);
  const id = options.id ?? "memory";
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  let version = 0;
  let last: SkillSourceScan | undefined;

  const normalize = (path: string) =>
    "/" +
    path
      .split("/")
      .filter((part) => part !== "" && part !== ".")
      .join("/");
  const put = (path: string, content: string | Uint8Array) => {
    if (path.split("/").includes(".."))
      throw new SkillsetError("invalid-path", `Path ${JSON.stringify(path)} must not contain '..'`);
    files.set(normalize(path), typeof content === "string" ? encoder.encode(content) : content);
  };
  for (const [path, content] of Object.entries(options.files ?? {})) put(path, content);

  return {
    specificationVersion: "v1",
    id,
    write(path, content) {
      put(path, content);
      version++;
    },
    remove(path) {
      const target = normalize(path);
      for (const key of [...files.keys()]) if (isInsideResolvedFolder(target, key, "/")) files.delete(key);
      version++;
    },
    async scan() {
      const currentVersion = `${id}#${version}`;
      if (last?.version === currentVersion) return last;
      const diagnostics: Diagnostic[] = [];
      const results = [...files]
        .filter(([path]) => path.endsWith("/SKILL.md"))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([path, bytes]) => inspectSkillFile(bytes, path, id));
      const skills = collectSkills(results, id, diagnostics);
      last = { version: currentVersion, skills, diagnostics };
      return last;
    },
    async readSkill(skill) {
      const bytes = files.get(skill.path);
      if (!bytes) throw new SkillsetError("not-found", `${skill.path} does not exist`);
      if (bytes.byteLength > MAX_SKILL_FILE_BYTES) {
        throw new SkillsetError("too-large", `${skill.path} exceeds the maximum size (${MAX_SKILL_FILE_BYTES} bytes)`);
      }
      return bytes;
    },
    async readFile(skill, relativePath, maxBytes) {
      const bytes = files.get(`${skillDirectory(skill)}/${relativePath}`);
      if (!bytes) throw new SkillsetError("not-found", `${relativePath} does not exist in the skill's folder`);
      if (bytes.byteLength > maxBytes)
        throw new SkillsetError("too-large", `${relativePath} is larger than ${maxBytes} bytes`);
      return bytes;
    },
    async listFiles(skill, limits) {
      const prefix = skillDirectory(skill) + "/";
      const listed: SkillFile[] = [];
      let truncated = false;
      for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (!path.startsWith(prefix) || path === skill.path) continue;
        const relativePath = path.slice(prefix.length);
        if (relativePath.split("/").length - 1 > limits.maxDepth) {
          truncated = true;
          continue;
        }
        if (listed.length >= limits.maxFiles) {
          truncated = true;
          break;
        }
        listed.push({ path, relativePath, size: bytes.byteLength });
      }
      return { files: listed, truncated };
    },
  };
}
