import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { stringify } from "yaml";
import type { ZodType } from "zod";
import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../core/errors.js";
import { inspectSkill } from "../core/inspect-skill.js";
import type { SkillMetadata } from "../core/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES, type FileListLimits, type SkillFile, type SkillFileListing, type SkillSource, type SkillSourceScan } from "../core/skill-source.js";
import { getSkillResultSchema, listSkillsResultSchema, readSkillEntry, sameEntry, type HeldSkill } from "./remote-skill-entry.js";
import { MAX_SKILL_BYTES } from "./served-files.js";
import { sha256Digest, SKILLS_EXTENSION } from "./skill-entry.js";
import { createSkillFolderCopies } from "./skill-folder-copy.js";
import { frontmatterMatches } from "./skill-frontmatter.js";
import { readDirectory, readResourceBytes } from "./remote-resources.js";

/** Options of {@link mcpSkillSource}. */
export interface McpSkillSourceOptions {
  /** A connected MCP client (see `connectMcpServer`). The source owns it: `close()` closes it. */
  client: Client;
  /**
   * The host's own name for the server (letters, digits, `.`, `_`, `-`), never the name the
   * server reports. Its skills are named `<label>:<name>` and its source id is `mcp:<label>`.
   */
  label: string;
  /** Use skills whose entry says `resources: "dynamic"`, whose content cannot be verified. @default false */
  allowDynamic?: boolean;
  /** Let the skills' `allowed-tools` recommend (or, under `"restrict"`, allow) tools and commands. @default false */
  trustAllowedTools?: boolean;
  /**
   * Let the agent's executor run this server's skill scripts (`run_skill_script`, dynamic
   * context): a loaded skill's files, each verified, are copied into a private temporary folder,
   * which becomes the skill's folder. Only for a server you trust to run code on this machine.
   * @default false
   */
  runScripts?: boolean;
  /** How long one request to the server may take, in milliseconds. @default 30000 */
  timeoutMs?: number;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_PAGES = 1000;
// Verified files kept in memory, by URI and digest, so a skill loaded again is not fetched again.
const CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Skills an MCP server serves through the Skills extension (`io.modelcontextprotocol/skills`), as
 * a {@link SkillSource} for the catalog, the engine and every host. Only a server that declares
 * the extension is asked (`skills/list`, every page); a `skill://` URI alone proves nothing.
 *
 * - **Names.** Every skill is `<label>:<name>`, so it never shadows, and is never shadowed by, a
 *   skill of another origin; two skills of one server with the same name are told apart by their
 *   paths (`<label>:acme.billing.refunds`), with a warning that names both.
 * - **Lazy and verified.** Nothing is fetched ahead: a `SKILL.md` when the skill is loaded, a file
 *   when it is read, each checked against its entry's size and `sha256:` digest, and the
 *   `SKILL.md` frontmatter against the entry's. On a mismatch a fresh `skills/get` decides: the
 *   skill changed since it was listed (the read is done again under the new entry) or the
 *   content is not what the server published (refused). A file the entry does not list is not read.
 * - **Content, not code.** `allowed-tools` grants nothing unless `trustAllowedTools`; `hooks` are
 *   dropped; unless `runScripts`, the files never touch the local disk, so executors have
 *   nothing to run (the skill's folder is its `skill://` URI).
 * - **Failures.** A server that goes away or errors yields no skills (a warning says why) and
 *   reads fail with a message naming it; other sources are not affected. Re-listing waits for
 *   the `ttlMs` the server gave.
 */
export function mcpSkillSource(options: McpSkillSourceOptions): SkillSource {
  const { client, label } = options;
  if (!LABEL.test(label)) throw new SkillsetError("invalid-options", `mcpSkillSource: label ${JSON.stringify(label)} must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  const id = `mcp:${label}`;
  const timeout = options.timeoutMs ?? 30_000;
  const held = new Map<string, HeldSkill>();
  const cache = new Map<string, Uint8Array>();
  const retrieved = new Map<string, number>();
  let last: SkillSourceScan | undefined;
  let lastSignature = "";
  let listedAt = -Infinity;
  let ttlMs = 0;
  let version = 0;
  let listing: Promise<SkillSourceScan> | undefined;
  const copies = options.runScripts ? createSkillFolderCopies(label) : undefined;

  const request = <T>(method: string, params: Record<string, unknown>, schema: ZodType<T>): Promise<T> =>
    client.request({ method, params } as never, schema as never, { timeout }).catch((error: unknown) => {
      throw failure(error, `${method} failed`);
    }) as Promise<T>;

  // A closed connection or a timeout makes the server unavailable; any other error is its answer.
  function failure(error: unknown, doing: string): SkillsetError {
    if (SkillsetError.isInstance(error)) return error;
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === ErrorCode.ConnectionClosed || code === ErrorCode.RequestTimeout || !client.transport) return new SkillsetError("mcp-unavailable", `MCP server '${label}' is unavailable: ${message}`);
    return new SkillsetError("mcp-error", `MCP server '${label}': ${doing}: ${message}`);
  }

  async function list(): Promise<SkillSourceScan> {
    const diagnostics: Diagnostic[] = [];
    const warn = (code: string, message: string, file = id) => diagnostics.push({ severity: "warning", code, file, message, source: id });
    const entries: unknown[] = [];
    let ttl: number | undefined;
    if (!client.transport) warn("mcp-unavailable", `MCP server '${label}' is unavailable: the connection is closed`);
    else if (!client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION]) {
      warn("no-skills-extension", `MCP server '${label}' does not declare the ${SKILLS_EXTENSION} extension; no skills are read from it (skill:// resources alone are not skills)`);
    } else {
      try {
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await request("skills/list", cursor === undefined ? {} : { cursor }, listSkillsResultSchema);
          entries.push(...page.skills);
          ttl ??= page.ttlMs;
          cursor = page.nextCursor;
        } while (cursor !== undefined && ++pages < MAX_PAGES);
        if (cursor !== undefined) warn("listing-cut", `MCP server '${label}' listed more than ${MAX_PAGES} pages of skills; the rest are not used`);
      } catch (error) {
        const problem = failure(error, "skills/list failed");
        warn(problem.code, problem.message);
      }
    }
    const skills = catalogSkills(entries, warn, diagnostics);
    listedAt = Date.now();
    ttlMs = ttl ?? 0;
    const signature = JSON.stringify([skills, diagnostics]);
    if (last && signature === lastSignature) return last;
    lastSignature = signature;
    last = { version: `${id}#${++version}`, skills, diagnostics };
    return last;
  }

  // The catalog's view of the entries: checked, named `<label>:<name>`, content not trusted.
  function catalogSkills(entries: readonly unknown[], warn: (code: string, message: string, file?: string) => void, diagnostics: Diagnostic[]): SkillMetadata[] {
    const readable: HeldSkill[] = [];
    for (const value of entries) {
      const uri = String((value as { uri?: unknown } | null)?.uri ?? "(an entry without a URI)");
      const read = readSkillEntry(value);
      if (!read.ok) warn("invalid-entry", `Skill ${uri} of MCP server '${label}' is not used: ${read.reason}`, uri);
      else if (read.held.files === "dynamic" && !options.allowDynamic) warn("dynamic-skill", `Skill ${uri} of MCP server '${label}' is not used: its content is dynamic and cannot be verified (allowDynamic is off)`, uri);
      else readable.push(read.held);
    }
    const byName = new Map<string, HeldSkill[]>();
    for (const skill of readable) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
    for (const [name, twins] of byName) {
      if (twins.length > 1) {
        const shown = twins.map((twin) => `${twin.entry.uri} as '${label}:${twin.skillPath.replaceAll("/", ".")}'`);
        warn("name-collision", `Skills of MCP server '${label}' share the name '${name}'; each is listed by its path: ${shown.join(", ")}`);
      }
    }
    held.clear();
    const skills: SkillMetadata[] = [];
    const names = new Set<string>();
    for (const skill of readable) {
      const name = `${label}:${byName.get(skill.name)!.length > 1 ? skill.skillPath.replaceAll("/", ".") : skill.name}`;
      if (names.has(name)) {
        warn("name-collision", `Skill ${skill.entry.uri} of MCP server '${label}' is not used: another of its skills is already listed as '${name}'`, skill.entry.uri);
        continue;
      }
      const inspected = inspectSkill({ text: `---\n${stringify(skill.entry.frontmatter, { lineWidth: 0 })}---\n`, file: skill.entry.uri, directoryName: skill.name, source: id });
      diagnostics.push(...inspected.diagnostics);
      if (!inspected.skill) continue;
      names.add(name);
      const { hooks: _hooks, ...metadata } = inspected.skill;
      const path = copies ? join(copies.folderOf(skill.root), "SKILL.md") : skill.entry.uri;
      skills.push({ ...metadata, name, path, allowedTools: options.trustAllowedTools ? metadata.allowedTools : [] });
      held.set(path, skill);
    }
    return skills;
  }

  // The skill's entry as the server gives it now, for the same URI.
  async function freshEntry(uri: string): Promise<HeldSkill> {
    const { skill } = await request("skills/get", { uri }, getSkillResultSchema);
    const read = readSkillEntry(skill);
    if (!read.ok || read.held.entry.uri !== uri) throw new SkillsetError("verification-failed", `MCP server '${label}' no longer serves ${uri} as it was listed${read.ok ? "" : `: ${read.reason}`}`);
    if (read.held.files === "dynamic" && !options.allowDynamic) throw new SkillsetError("verification-failed", `${uri} of MCP server '${label}' is now dynamic and cannot be verified (allowDynamic is off)`);
    return read.held;
  }

  // A file of a listed skill, verified; on a mismatch, a fresh entry decides whether to read again.
  async function verifiedRead(skill: SkillMetadata, path: string, maxBytes: number): Promise<Uint8Array> {
    const current = held.get(skill.path);
    if (!current) throw new SkillsetError("not-found", `MCP server '${label}' no longer lists ${skill.path}`);
    // Not even from the cache: a server that went away takes its skills with it.
    if (!client.transport) throw new SkillsetError("mcp-unavailable", `MCP server '${label}' is unavailable: the connection is closed`);
    try {
      return await readChecked(current, path, maxBytes);
    } catch (error) {
      if (!SkillsetError.isInstance(error) || error.code !== "verification-failed") throw error;
      const fresh = await freshEntry(current.entry.uri);
      if (sameEntry(fresh.entry, current.entry)) throw error;
      held.set(skill.path, fresh);
      listedAt = -Infinity;
      return readChecked(fresh, path, maxBytes);
    }
  }

  async function readChecked(skill: HeldSkill, path: string, maxBytes: number): Promise<Uint8Array> {
    const listed = skill.files === "dynamic" ? undefined : skill.files.get(path);
    if (skill.files !== "dynamic" && !listed) throw new SkillsetError("verification-failed", `${path} is not a file of ${skill.entry.uri} as MCP server '${label}' listed it`);
    if (listed && listed.size > maxBytes) throw new SkillsetError("too-large", `${path} is larger than ${maxBytes} bytes`);
    const uri = listed?.uri ?? `${skill.root}/${path.split("/").map(encodeURIComponent).join("/")}`;
    const key = listed && `${listed.uri}\n${listed.digest}`;
    let bytes = key === undefined ? undefined : cache.get(key);
    if (!bytes) {
      bytes = await readResourceBytes(client, uri, { timeout, maxBytes }).catch((error: unknown) => {
        throw failure(error, `reading ${uri} failed`);
      });
      if (listed) {
        const digest = sha256Digest(bytes);
        if (bytes.byteLength !== listed.size || digest !== listed.digest) {
          throw new SkillsetError("verification-failed", `${uri} from MCP server '${label}' is not what its entry lists (${bytes.byteLength} bytes, ${digest}; the entry says ${listed.size} bytes, ${listed.digest}); refused`);
        }
      } else {
        // Dynamic content has no digests; the extension's 16 MiB per skill bounds what is fetched.
        const total = (retrieved.get(skill.root) ?? 0) + bytes.byteLength;
        if (total > MAX_SKILL_BYTES) throw new SkillsetError("too-large", `${skill.entry.uri} has sent more than ${MAX_SKILL_BYTES} bytes (16 MiB); refused`);
        retrieved.set(skill.root, total);
      }
    }
    if (path === "SKILL.md" && !frontmatterMatches(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), skill.entry.frontmatter)) {
      throw new SkillsetError("verification-failed", `the frontmatter of ${uri} from MCP server '${label}' is not the frontmatter its entry lists; refused`);
    }
    if (key !== undefined) remember(key, bytes);
    return bytes;
  }

  function remember(key: string, bytes: Uint8Array): void {
    cache.delete(key);
    cache.set(key, bytes);
    let total = 0;
    for (const value of cache.values()) total += value.byteLength;
    for (const oldest of cache.keys()) {
      if (total <= CACHE_BYTES) break;
      total -= cache.get(oldest)!.byteLength;
      cache.delete(oldest);
    }
  }

  async function listHeldFiles(skill: SkillMetadata, limits: FileListLimits): Promise<SkillFileListing> {
    const current = held.get(skill.path);
    if (!current) throw new SkillsetError("not-found", `MCP server '${label}' no longer lists ${skill.path}`);
    if (current.files === "dynamic") {
      const settings = client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION] as { directoryRead?: unknown } | undefined;
      return settings?.directoryRead === true ? readDirectory(client, current.root, limits, timeout) : { files: [], truncated: false };
    }
    const files: SkillFile[] = [];
    let truncated = false;
    for (const [relativePath, file] of current.files) {
      if (relativePath === "SKILL.md") continue;
      if (relativePath.split("/").length - 1 > limits.maxDepth || files.length >= limits.maxFiles) truncated = true;
      else files.push({ path: file.uri, relativePath, size: file.size });
    }
    return { files, truncated };
  }

  return {
    specificationVersion: "v1",
    id,
    // Remote skills are content: their commands run only where the integrator opted in.
    runsCommands: options.runScripts === true,
    scan() {
      if (last && client.transport && Date.now() - listedAt < ttlMs) return Promise.resolve(last);
      listing ??= list().finally(() => (listing = undefined));
      return listing;
    },
    async readSkill(skill) {
      const bytes = await verifiedRead(skill, "SKILL.md", MAX_SKILL_FILE_BYTES);
      const current = held.get(skill.path);
      if (copies && current && current.files !== "dynamic") {
        const files: Array<[string, Uint8Array]> = [];
        for (const path of current.files.keys()) files.push([path, path === "SKILL.md" ? bytes : await verifiedRead(skill, path, MAX_SKILL_BYTES)]);
        copies.write(current.root, files);
      }
      return bytes;
    },
    listFiles: listHeldFiles,
    readFile: (skill, relativePath, maxBytes) => verifiedRead(skill, relativePath, maxBytes),
    close() {
      copies?.remove();
      void client.close();
    },
  };
}
