import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createCatalog, type Catalog } from "../../core/catalog/catalog.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { createSkillEngine, type SkillEngine } from "../../core/engine/skill-engine.js";
import type { CodeLimits } from "../../exec/code-sandbox/code-limits.js";
import { CODE_LIMITS_OPTIONS } from "../../core/engine/code-mode-context.js";
import type { SkillsLogger } from "../../core/skill-events.js";
import type { SkillRanker } from "../../core/search/skill-search.js";
import type { SkillSource } from "../../core/skill-source.js";
import type { ScriptExecutor } from "../../exec/script-executor.js";
import { lockfileVerifier, type LockfileOption } from "../../node/skills-lock/lockfile-verifier.js";
import { sourcesFromStrings } from "../../sources/source-from-string.js";
import { createTimeSlice } from "../../core/time-slice.js";
import { listenOverHttp, type SkillsMcpHttpListener, type SkillsMcpHttpOptions } from "./http-listener.js";
import { handleSkillPrompts } from "./mcp-prompts.js";
import { handleSkillResources } from "./mcp-resources.js";
import { createMcpSkillSession } from "./mcp-session.js";
import { registerSkillTools, type SkillTools, type ToolCatalog } from "./mcp-tools.js";
import { listServedFiles } from "../skills-extension/served-files.js";
import { sourceOf, type McpServerContext } from "./server-context.js";
import { SKILLS_EXTENSION } from "../skills-extension/skill-entry.js";
import { skillUri } from "../skills-extension/skill-uri.js";
import { handleSkillsExtension } from "./skills-methods.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";
import { SCRIPT_RULES_OPTIONS } from "../../exec/script-executor.js";
import { LOCKFILE_OPTIONS } from "../../node/skills-lock/lockfile-verifier.js";

/** Options of {@link createSkillsMcpServer}. */
export interface SkillsMcpServerOptions {
  /** Skill sources, lowest precedence first; strings are local folders (`~` is the home folder) or `npm:` sources. */
  sources: ReadonlyArray<string | SkillSource>;
  /** Find skills at any depth below each string source. @default false */
  recursive?: boolean;
  /** How many skills one session may have loaded at once. @default 10 */
  maxLoadedSkills?: number;
  /** Offer `run_skill_script`, running commands through `executor` under the skills' allow-lists. Off unless given. */
  runScripts?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /** Entries per page of `skills/list`, `resources/list`, `prompts/list` and directory reads. @default 50 */
  pageSize?: number;
  /** How long clients may treat a `skills/list` or `skills/get` result as current, in milliseconds. @default 10000 */
  ttlMs?: number;
  /** How often the sources are checked for changes, to send list-changed notifications; 0 never. @default 1000 */
  watchIntervalMs?: number;
  /** The name and version the server reports to clients. @default { name: "skillset", version: "0" } */
  serverInfo?: { name: string; version: string };
  /**
   * Check each skill against the `skills-lock.json` the `skills` CLI wrote when a session loads
   * or invokes it: a path (refuse skills that differ or are not listed) or `{ path, mode: "warn" }`.
   */
  lockfile?: LockfileOption;
  /**
   * Offer `run_code`: the client's model runs JavaScript in a WebAssembly sandbox of its session, importing
   * the modules of the skills it loaded (`@/skills/<name>`); `load_skill` results list a module's exports.
   * The code calls no tools: this server's tools are the skill tools, which code never calls, and the
   * client's own tools live in the client. `limits` and `keepValues` as `createCodeSandboxPool` takes them.
   * Off unless given.
   */
  codeMode?: boolean | { limits?: Partial<CodeLimits>; keepValues?: boolean };
  /** Receives structured log entries; nothing is logged without it (and nothing is ever written to stdout). */
  logger?: SkillsLogger;
  /**
   * Rankers for `search_skills`, fused by reciprocal rank; default the lexical one. E.g.
   * `[createLexicalRanker(), createEmbeddingRanker(embeddings, { cache: createEmbeddingCache({ model }) })]`.
   */
  searchRankers?: readonly SkillRanker[];
}

/** A skill that is not served over the Skills extension, and why. */
export interface UnservedSkill {
  name: string;
  path: string;
  reason: string;
}

/** An MCP server of skills, from {@link createSkillsMcpServer}. */
export interface SkillsMcpServer {
  /** The skills served, from every source; `refresh()` gives the current snapshot with its diagnostics. */
  readonly catalog: Catalog;
  /** Serves one client over `transport` (e.g. the SDK's `StdioServerTransport`), with a skills state of its own. */
  connect(transport: Transport): Promise<void>;
  /** Serves clients over Streamable HTTP at `http://<host>:<port>/mcp`, one session each. */
  listen(options?: SkillsMcpHttpOptions): Promise<SkillsMcpHttpListener>;
  /** The skills the Skills extension does not serve (over its 512-file or 16 MiB limits, or unlistable), with the reason. */
  unservedSkills(): Promise<UnservedSkill[]>;
  /** Ends every session and listener, and stops watching the sources. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  tools: SkillTools;
}

const MCP_SERVER_OPTIONS = {
  sources: true,
  recursive: true,
  maxLoadedSkills: true,
  runScripts: SCRIPT_RULES_OPTIONS,
  pageSize: true,
  ttlMs: true,
  watchIntervalMs: true,
  serverInfo: { name: true, version: true },
  lockfile: LOCKFILE_OPTIONS,
  codeMode: { limits: CODE_LIMITS_OPTIONS, keepValues: true },
  logger: true,
  searchRankers: true,
} as const satisfies KnownOptions<SkillsMcpServerOptions>;

/**
 * Agent Skills over the Model Context Protocol. Each session (a client over stdio, or one
 * Streamable HTTP session) gets:
 * - tools, with the LangChain tools' names and arguments: `load_skill`, `unload_skill`,
 *   `read_skill_resource`, `search_skills` (when the engine offers search) and, only with
 *   `runScripts`, `run_skill_script`, and with `codeMode`, `run_code`; the session's loaded skills and budget are its own;
 * - one prompt per skill a user may invoke, so a client's slash menu is the skill list;
 * - every skill file as a resource `skill://<name>/<path>`, under the same confinement as
 *   `read_skill_resource`;
 * - the Skills extension (`skills/list`, `skills/get`, `resources/directory/read`);
 * - the catalog in the server's instructions and in `load_skill`'s description, and
 *   list-changed notifications when the skills change.
 * Everything goes through the skill engine, as in the LangChain middleware.
 */
export function createSkillsMcpServer(options: SkillsMcpServerOptions): SkillsMcpServer {
  refuseUnknownOptions("createSkillsMcpServer", options, MCP_SERVER_OPTIONS);
  if (options.sources.length === 0)
    throw new SkillsetError("invalid-options", "createSkillsMcpServer: give at least one source");
  const catalog = createCatalog(sourcesFromStrings(options.sources, { recursive: options.recursive ?? false }));
  const engine = createSkillEngine({
    maxLoadedSkills: options.maxLoadedSkills ?? 10,
    resourceReadTool: "read_skill_resource",
    // Clients read a skill's files by the URIs served here, never by this server's disk paths.
    skillLocation: (skill) => ({ file: skillUri(skill.name), folder: `${skillUri(skill.name, "")}/` }),
    ...(options.runScripts ? { scripts: options.runScripts, scriptRunTool: "run_skill_script" } : {}),
    ...(options.lockfile === undefined ? {} : { verifySkill: lockfileVerifier(options.lockfile) }),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.searchRankers ? { search: { rankers: options.searchRankers } } : {}),
    ...(options.codeMode ? { codeMode: options.codeMode === true ? {} : { ...options.codeMode, tools: [] } } : {}),
  });
  const context: McpServerContext = {
    engine,
    catalog,
    snapshot: () => catalog.refresh(),
    pageSize: options.pageSize ?? 50,
    ttlMs: options.ttlMs ?? 10_000,
  };
  const serverInfo = options.serverInfo ?? { name: "skillset", version: "0" };
  const sessions = new Set<Session>();
  const listeners = new Set<SkillsMcpHttpListener>();

  const currentCatalog = catalogTracker(engine, catalog);

  async function connectSession(transport: Transport, id: string): Promise<void> {
    const shownCatalog = (await currentCatalog()).catalog;
    const server = new McpServer(serverInfo, { instructions: shownCatalog.text });
    server.server.registerCapabilities({
      prompts: { listChanged: true },
      resources: { listChanged: true },
      extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
    });
    const session = createMcpSkillSession(context, id);
    const entry: Session = {
      server,
      tools: registerSkillTools(server, engine, session, {
        scripts: options.runScripts !== undefined,
        code: Boolean(options.codeMode),
        catalog: shownCatalog,
      }),
    };
    handleSkillPrompts(server.server, context, session);
    handleSkillResources(server.server, context);
    handleSkillsExtension(server.server, context, options.logger);
    server.server.onclose = () => {
      sessions.delete(entry);
      engine.releaseCode(id);
    };
    sessions.add(entry);
    await server.connect(transport);
  }

  const timer = watchForChanges(sessions, currentCatalog, options.watchIntervalMs ?? 1000, options.logger);
  let closed = false;

  return {
    catalog,
    connect: (transport) => connectSession(transport, transport.sessionId ?? randomUUID()),

    async listen(httpOptions) {
      const listener = await listenOverHttp(connectSession, httpOptions ?? {});
      listeners.add(listener);
      return listener;
    },

    unservedSkills: () => unservedSkills(context, () => closed),

    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.all([...listeners].map((listener) => listener.close()));
      await Promise.all([...sessions].map(({ server }) => server.close()));
      engine.releaseCode();
      catalog.close();
    },
  };
}

// The catalog as the engine renders it for the model (within its budget), for the server's
// instructions and load_skill's description; `changed` when its content is not the last one's.
function catalogTracker(
  engine: SkillEngine,
  catalog: Catalog,
): () => Promise<{ changed: boolean; catalog: ToolCatalog }> {
  let shown: { version: string; catalog: ToolCatalog } | undefined;
  return async () => {
    const { skills, version } = (await engine.refresh(catalog, { loaded: [] }))!;
    if (shown?.version === version) return { changed: false, catalog: shown.catalog };
    const request = {
      state: { skills, catalogVersion: version, loaded: [], resources: {} },
      sources: async () => catalog.sources,
    };
    const text = (await engine.catalog(request)).text;
    shown = { version, catalog: { text, search: await engine.offersSearch(request) } };
    return { changed: true, catalog: shown.catalog };
  };
}

// The skills a client could list but not fetch whole, and why. Lists every skill's files, so it
// pauses every 2 ms (a request that comes meanwhile waits no longer) and stops once the server closes.
async function unservedSkills(context: McpServerContext, closed: () => boolean): Promise<UnservedSkill[]> {
  const unserved: UnservedSkill[] = [];
  const slice = createTimeSlice(2);
  for (const skill of (await context.snapshot()).skills) {
    if (slice.due()) await slice.pause();
    if (closed()) break;
    const source = sourceOf(context, skill);
    const files = source ? await listServedFiles(source, skill) : { ok: false as const, reason: "its source is gone" };
    if (!files.ok) unserved.push({ name: skill.name, path: skill.path, reason: files.reason });
  }
  return unserved;
}

// Sessions hear of changed skills by notification; an unchanged re-scan costs next to nothing.
function watchForChanges(
  sessions: ReadonlySet<Session>,
  currentCatalog: () => Promise<{ changed: boolean; catalog: ToolCatalog }>,
  interval: number,
  logger: SkillsLogger | undefined,
): ReturnType<typeof setInterval> | undefined {
  if (interval <= 0) return undefined;
  let checking = false;
  const notifyChanges = async (): Promise<void> => {
    try {
      const { changed, catalog: shownCatalog } = await currentCatalog();
      if (!changed) return;
      for (const { server, tools } of sessions) {
        if (!server.isConnected()) continue;
        tools.showCatalog(shownCatalog);
        server.sendPromptListChanged();
        server.sendResourceListChanged();
      }
    } catch (error) {
      logger?.({
        level: "error",
        event: "skill_diagnostic",
        message: `Checking the skills for changes failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
  const timer = setInterval(() => {
    if (checking || sessions.size === 0) return;
    checking = true;
    void notifyChanges().finally(() => (checking = false));
  }, interval);
  timer.unref();
  return timer;
}
