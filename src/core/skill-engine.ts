import { createCatalog, type Catalog } from "./catalog.js";
import { catalogView } from "./catalog-view.js";
import { SkillsetError } from "./errors.js";
import { planSkillCalls, type SkillCall, type SkillCallDecision } from "./plan-skill-calls.js";
import { renderLoadedSkills } from "./prompt-loaded.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "./prompt-markdown.js";
import { DEFAULT_RESOURCE_LINES, MAX_RESOURCE_BYTES, renderResourcePage } from "./read-resource.js";
import { DEFAULT_CATALOG_BUDGET, renderCatalog, type RenderedCatalog } from "./render-catalog.js";
import { renderInstructions, type DynamicCommandRunner } from "./render-instructions.js";
import { checkResourcePath } from "./resource-path.js";
import { droppedSkills, restoreDroppedSkills } from "./restore-dropped-skills.js";
import { planInheritance, type InheritedSkills } from "./inherit-skills.js";
import { isUserInvocable, parseSkillCommand, type SkillCommand } from "./skill-command.js";
import { splitAtBody } from "./skill-document.js";
import { createLexicalRanker, fuseRankings, type SkillRanker } from "./skill-search.js";
import { emitSkillsEvent, type SkillsLogEntry, type SkillsLogger } from "./skill-events.js";
import { skillDirectory, type SkillMetadata } from "./skill-metadata.js";
import { disclosedTools } from "./skill-tools.js";
import { applyToLoaded, applyToResources, type SkillOperation } from "./skill-operations.js";
import { DEFAULT_RESOURCE_LIMITS, discoverResources, type SkillResource } from "./skill-resources.js";
import { MAX_SKILL_FILE_BYTES, type SkillSource } from "./skill-source.js";
import { forkTaskText, invocationResultText, loadResultText, refusalMessage, unloadResultText } from "./skill-tool-messages.js";
import { allowedToolUnion, isToolAllowed, restrictedToolMessage, type AllowedToolsPolicy } from "./tool-policy.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../exec/command-allow-list.js";
import { createSkillCommandRunner, runSkillCommand } from "../exec/run-skill-command.js";
import { formatScriptResult, type ScriptExecutor } from "../exec/script-executor.js";

/** Options of {@link createSkillEngine}. */
export interface SkillEngineOptions {
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills?: number;
  /** `"recommend"` shows `allowed-tools`; `"restrict"` also refuses other tools while skills declare them. @default "recommend" */
  allowedToolsPolicy?: AllowedToolsPolicy;
  /** Replaces the guidance before the catalog; `{load}` and `{unload}` become the tool names. */
  guidance?: string;
  /** Longest description in the catalog. @default 250 */
  maxDescriptionLength?: number;
  /** The tool the prompt and load results tell the model to read resources with. @default "read_file" */
  resourceReadTool?: string;
  /** The tool the prompt tells the model to run scripts with, if any. */
  scriptRunTool?: string;
  /** Runs {@link SkillEngine.runScript}; without it, scripts are refused. */
  scripts?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /**
   * Runs the `` !`command` `` and ```` ```! ```` blocks of a skill's instructions when they are
   * rendered, under the same rules as scripts. Off unless given: the text then says the command
   * was not run.
   */
  dynamicContext?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /**
   * Most tokens (o200k_base) the catalog may take in the prompt. Under it nothing changes; over
   * it, descriptions are shortened, then skills named only, then only counted, and
   * `search_skills` finds them (see `renderCatalog`). `false`: no limit.
   * @default 5000
   */
  catalogBudget?: number | false;
  /** Skills that keep their catalog lines first when the catalog is over its budget, most important first. */
  catalogPriority?: readonly string[];
  /**
   * Skill search: `offer` says when hosts offer `search_skills` (`"auto"`: while the catalog is
   * over its budget; `true` or `"always"`; `false` or `"never"`); `rankers` are fused by
   * reciprocal rank (default: the lexical ranker).
   */
  search?: { offer?: "auto" | "always" | "never" | boolean; rankers?: readonly SkillRanker[] | undefined };
  /**
   * Whether the host runs `context: fork` skills in a forked agent. Their loads and invocations
   * then take no slot and come back with {@link SkillStep}'s `fork`; otherwise they load as any
   * skill does.
   * @default false
   */
  forkSkills?: boolean;
  /** Receives structured log entries; nothing is logged without it. */
  logger?: SkillsLogger;
}

/** What the engine reads of a thread. The host keeps it (graph state, messages, a store). */
export interface SkillThreadState {
  /**
   * The catalog the model sees, in its stable order. Hosts that keep only `catalogVersion` in
   * the thread leave it out: the engine then uses the catalog of that version it refreshed last,
   * or scans the request's sources again.
   */
  skills?: readonly SkillMetadata[];
  /** The catalog's content hash (from {@link SkillEngine.refresh}): renderings are cached by it. */
  catalogVersion?: string;
  /** Loaded skills, in load order. */
  loaded: readonly string[];
  resources: Readonly<Record<string, readonly SkillResource[]>>;
}

/** One request to the engine: a thread's state and how to reach its sources. */
export interface SkillRequest {
  state: SkillThreadState;
  /** The sources the catalog came from; only reads call it. */
  sources(): Promise<readonly SkillSource[]>;
  /** Becomes `${CLAUDE_SESSION_ID}` in instructions, e.g. the thread id. */
  sessionId?: string;
  /** Also receives this request's events (not `debug` ones), e.g. a stream writer. */
  emit?: SkillsLogger;
}

/**
 * The outcome of a state-changing call: on success the text for the model and the operations the
 * host applies to its loaded-skills state; on refusal only the text, and nothing changes.
 */
export type SkillStep = { ok: true; text: string; operations: SkillOperation[]; fork?: SkillFork } | { ok: false; text: string };

/**
 * A `context: fork` skill for the host to run in a forked agent (with `forkSkills`): the step's
 * text is the fork's task, and its operations belong to the fork's state, not the thread's.
 */
export interface SkillFork {
  skill: string;
  /** The skill's `agent:`, the agent type to run it in. */
  agent?: string;
  /** The skill's `allowed-tools`: the fork gets only these of its agent's tools, when there are any. */
  allowedTools: string[];
}

/** The outcome of a read-only call: the text for the model, and whether it is an error. */
export interface SkillReply {
  ok: boolean;
  text: string;
}

/** One `/name args` of {@link SkillEngine.invokeCommands}: which text, and what the model gets in its place. */
export interface SkillInvocation {
  /** Index of the text among those given. */
  at: number;
  command: SkillCommand;
  ok: boolean;
  /** The rendered skill, or the user's text with a note saying why it could not be invoked. */
  text: string;
  /** For a skill the host runs in a forked agent: which, and the fork's own state operations (the thread's state does not change). */
  fork?: SkillFork & { operations: SkillOperation[] };
}

/** One skill `search_skills` found. */
export interface SkillSearchResult {
  name: string;
  description: string;
  argumentHint?: string;
  path: string;
  /** The ranker's score (fused rankers: reciprocal-rank sums); higher is better. */
  score: number;
}

/** What {@link SkillEngine.search} found: the text for the model, and the results as data. */
export interface SkillSearchReply extends SkillReply {
  results: SkillSearchResult[];
}

/** The catalog to write to a thread, and the loaded skills that left it. */
export interface CatalogRefresh {
  skills: SkillMetadata[];
  version: string;
  /** Unloads of loaded skills that are no longer in any source. */
  operations: SkillOperation[];
}

/**
 * The skill lifecycle, free of any agent framework: plan calls against the budget, read and
 * render skills, discover resources, read them, run scripts, build the prompt, and say which
 * state operations follow. Hosts (the LangChain middleware, other adapters) translate their
 * framework's state and tool calls to these calls and apply the operations they return. The
 * engine holds no per-thread data, only caches derived from catalogs, so one engine serves
 * every thread.
 */
export interface SkillEngine {
  readonly maxLoaded: number;
  /**
   * Re-scans `catalog`; `undefined` when the thread already has this catalog (its
   * `catalogVersion`), else the catalog to write and the unloads of loaded skills that left it.
   * Diagnostics are logged once per catalog snapshot, not once per thread.
   */
  refresh(catalog: Catalog, state: Pick<SkillThreadState, "loaded" | "catalogVersion">, emit?: SkillRequest["emit"]): Promise<CatalogRefresh | undefined>;
  /**
   * The skills section of the system prompt: the stable catalog, then the loaded skills, then
   * the instructions of loaded skills whose text is no longer among `visibleTexts()` (the message
   * texts the model gets; asked only while skills are loaded), re-attached.
   */
  systemPrompt(request: SkillRequest, visibleTexts?: () => readonly string[]): Promise<string>;
  /** The catalog section as rendered for this thread's catalog: its text, tokens, and which skills went where. */
  catalog(request: SkillRequest): Promise<RenderedCatalog>;
  /** Whether hosts offer `search_skills` now (see {@link SkillEngineOptions.search}). */
  offersSearch(request: SkillRequest): Promise<boolean>;
  /** The model's `search_skills`: the skills it may load that best match `query`. */
  search(request: SkillRequest, input: { query: string; limit?: number }): Promise<SkillSearchReply>;
  /** The model's `load_skill`. `calls` are every skill call of the same step, so parallel calls agree. */
  load(request: SkillRequest, call: { skill: string; arguments?: string; id: string }, calls?: readonly SkillCall[]): Promise<SkillStep>;
  /** The model's `unload_skill`. */
  unload(request: SkillRequest, call: { skill: string; id: string }, calls?: readonly SkillCall[]): SkillStep;
  /** Reads `/name args` in a user's message; `undefined` when it is not a skill the user may invoke. */
  parseCommand(text: string, state: Pick<SkillThreadState, "skills" | "catalogVersion">): SkillCommand | undefined;
  /**
   * A user's `/name args`: the rendered instructions to give the model in place of the command.
   * The skill counts as loaded; when every slot is taken, the least recently loaded skill is
   * unloaded to make room and the text says so.
   */
  invoke(request: SkillRequest, command: SkillCommand): Promise<SkillStep>;
  /**
   * Every `/name args` among a user's messages (their texts, in order; `undefined` for one
   * without text), invoked one after another, each on the state the one before left. A command
   * that fails keeps the user's text with a note saying why, so nothing the user typed is lost.
   * `invoke` replaces {@link SkillEngine.invoke}, for hosts that add to its result.
   */
  invokeCommands(
    request: SkillRequest,
    texts: readonly (string | undefined)[],
    invoke?: (request: SkillRequest, command: SkillCommand) => Promise<SkillStep>,
  ): Promise<{ state: SkillThreadState; operations: SkillOperation[]; invocations: SkillInvocation[] }>;
  /**
   * A subagent's start with its parent's loaded skills: the loads to apply, and the parent's
   * instruction texts of those the subagent does not see in `visibleTexts`. Skills its catalog
   * lacks, or that find no free slot, stay behind with a `skill_not_inherited` event.
   */
  inherit(request: SkillRequest, parent: InheritedSkills, visibleTexts: readonly string[]): Promise<{ operations: SkillOperation[]; instructions: string[] }>;
  /** Reads a file of a loaded skill, a page of lines at a time. */
  readResource(request: SkillRequest, input: { skill: string; path: string; offset?: number; limit?: number }): Promise<SkillReply>;
  /** Runs a command in a loaded skill's folder, if its allow-list permits it. */
  runScript(request: SkillRequest, input: { skill: string; command: string }): Promise<SkillReply>;
  /** The loaded skills, in load order, as the catalog describes them (e.g. for the tools they bring). */
  loadedSkills(request: SkillRequest): Promise<SkillMetadata[]>;
  /**
   * Under `"restrict"`, the refusal for a tool the loaded skills do not allow; else `undefined`.
   * A loaded skill's own tools (`metadata.include_tools`) are always allowed.
   */
  toolRefusal(request: Pick<SkillRequest, "state" | "emit">, tool: string, alwaysAllowed: ReadonlySet<string>): string | undefined;
}

/** A thread's state after `operations`, for hosts that keep the state themselves. */
export function applySkillOperations(state: SkillThreadState, operations: readonly SkillOperation[]): SkillThreadState {
  if (operations.length === 0) return state;
  return { ...state, loaded: applyToLoaded(state.loaded, operations), resources: applyToResources(state.resources as Record<string, SkillResource[]>, operations) };
}

/** Creates a {@link SkillEngine}. */
export function createSkillEngine(options: SkillEngineOptions = {}): SkillEngine {
  const maxLoaded = options.maxLoadedSkills ?? 10;
  const policy = options.allowedToolsPolicy ?? "recommend";
  const readTool = options.resourceReadTool ?? "read_file";
  const logger = options.logger;
  const logged = new WeakSet<object>();

  const budget = options.catalogBudget === false ? undefined : (options.catalogBudget ?? DEFAULT_CATALOG_BUDGET);
  const given = options.search?.offer ?? "auto";
  const offer = given === true ? "always" : given === false ? "never" : given;
  const rankers = options.search?.rankers ?? [createLexicalRanker()];

  // Derived from a catalog only, keyed by its content hash: safe to share between threads. The
  // threads keep only the version, so this is where their catalog lives; least recently used go.
  const renderings = new Map<string, Rendering>();
  const remember = (version: string, skills: readonly SkillMetadata[]): Rendering => {
    let cached = renderings.get(version);
    if (cached !== undefined) renderings.delete(version);
    else cached = rendering(skills);
    if (renderings.size >= MAX_CACHED_CATALOGS) renderings.delete(renderings.keys().next().value!);
    renderings.set(version, cached);
    return cached;
  };
  // Without the version's catalog in memory, nor skills in the state, the catalog is empty here;
  // the asynchronous calls scan the sources again instead (see `resolve`).
  const renderingOf = (state: Pick<SkillThreadState, "skills" | "catalogVersion">): Rendering => {
    // A catalog without a version was not written by skillset: render it, but do not cache it.
    if (!state.catalogVersion) return rendering(state.skills ?? []);
    if (!state.skills && !renderings.has(state.catalogVersion)) return EMPTY_RENDERING;
    return remember(state.catalogVersion, state.skills ?? []);
  };
  const resolve = async (request: SkillRequest): Promise<Rendering> => {
    const { state } = request;
    if (state.skills || !state.catalogVersion || renderings.has(state.catalogVersion)) return renderingOf(state);
    const view = catalogView(await createCatalog(await request.sources()).refresh());
    return view.version === state.catalogVersion ? remember(view.version, view.skills) : rendering([]);
  };
  const catalogText = async (request: SkillRequest, cached: Rendering): Promise<RenderedCatalog> => {
    cached.catalog ??= request.sources().then((sources) =>
      renderCatalog(cached.skills, {
        maxDescriptionLength: options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH,
        resourceReadTool: readTool,
        allowedToolsPolicy: policy,
        ...(options.scriptRunTool ? { scriptRunTool: options.scriptRunTool } : {}),
        ...(options.guidance ? { guidance: options.guidance } : {}),
        ...(budget !== undefined ? { budget } : {}),
        ...(options.catalogPriority ? { pinned: options.catalogPriority } : {}),
        ...(offer !== "never" ? { searchTool: SEARCH_TOOL } : {}),
        sourceOrder: sources.map((source) => source.id),
      }).then((fitted) => {
        // Once per catalog version, and only for hosts that show this catalog.
        if (overBudget(fitted)) emitSkillsEvent(logger, undefined, budgetEvent(fitted, budget!, offer !== "never"));
        return fitted;
      }),
    );
    return cached.catalog;
  };
  const emit = (request: Pick<SkillRequest, "emit">, entry: SkillsLogEntry) => emitSkillsEvent(logger, request.emit, entry);
  const loadedSkills = (state: SkillThreadState, { byName }: Rendering = renderingOf(state)) => state.loaded.flatMap((name) => byName.get(name) ?? []);
  const overBudget = (catalog: RenderedCatalog) => catalog.short.length + catalog.named.length + catalog.hidden.length > 0;

  async function sourceOf(request: SkillRequest, skill: SkillMetadata): Promise<SkillSource> {
    const source = (await request.sources()).find((candidate) => candidate.id === skill.source);
    if (!source) throw new SkillsetError("read-failed", `its source '${skill.source}' is not configured in this agent`);
    return source;
  }

  async function readSkillText(source: SkillSource, skill: SkillMetadata): Promise<string> {
    const bytes = await source.readSkill(skill);
    if (bytes.byteLength > MAX_SKILL_FILE_BYTES) throw new SkillsetError("too-large", `Skill file at ${skill.path} exceeds maximum size (${MAX_SKILL_FILE_BYTES} bytes)`);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      throw new SkillsetError("decode-failed", `Failed to decode skill file at ${skill.path}: ${(error as Error).message}`);
    }
  }

  // Reads, renders and discovers one skill; a failure is the model-facing error text.
  async function prepare(request: SkillRequest, skill: SkillMetadata, args: string | undefined): Promise<{ content: string; operation: SkillOperation; resources: number } | { error: string }> {
    let source: SkillSource;
    let text: string;
    try {
      source = await sourceOf(request, skill);
      text = await readSkillText(source, skill);
    } catch (error) {
      const message = readFailureMessage(skill.path, error);
      emit(request, { level: "error", event: "skill_read_failed", message, skill: skill.name, path: skill.path });
      return { error: message };
    }
    const { head, body } = splitAtBody(text);
    const runCommand = source.runsCommands === false ? undefined : dynamicRunner(request, skill);
    const rendered = await renderInstructions(body, {
      // Argument placeholders are filled only for skills written to take arguments, or when
      // arguments were given: `awk '{print $1}'` in an ordinary skill must stay as written.
      ...(args !== undefined || skill.argumentHint !== undefined || skill.argumentNames ? { arguments: args ?? "" } : {}),
      ...(skill.argumentNames ? { argumentNames: skill.argumentNames } : {}),
      skillDir: skillDirectory(skill),
      ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
      ...(runCommand ? { runCommand } : {}),
    });
    const discovery = await discoverResources(source, skill, DEFAULT_RESOURCE_LIMITS);
    if (discovery.error) {
      emit(request, { level: "warn", event: "resource_discovery_failed", message: `Failed to list resources for skill '${skill.name}': ${discovery.error}`, skill: skill.name });
    }
    return {
      content: loadResultText(skill, head + rendered, discovery, readTool, policy),
      operation: { kind: "load", skill: skill.name, resources: discovery.resources, ...(discovery.truncated ? { resourcesTruncated: true } : {}) },
      resources: discovery.resources.length,
    };
  }

  // Dynamic context goes through the script rules; each run or refusal is an event.
  function dynamicRunner(request: SkillRequest, skill: SkillMetadata): DynamicCommandRunner | undefined {
    if (!options.dynamicContext) return undefined;
    const { executor, defaultAllowedCommands = DEFAULT_ALLOWED_COMMANDS } = options.dynamicContext;
    const run = createSkillCommandRunner({ skillDir: skillDirectory(skill), allowedCommands: allowedCommandsOf(skill, defaultAllowedCommands), executor, skillName: skill.name });
    return async (command) => {
      const result = await run(command);
      const outcome = result.ok ? "ran" : result.ran ? `failed: ${result.reason}` : result.reason;
      emit(request, { level: result.ok ? "info" : "warn", event: "dynamic_context", message: `Dynamic context of skill '${skill.name}': \`${command}\` ${outcome}`, skill: skill.name, command, ok: result.ok });
      return result;
    };
  }

  const forks = (skill: SkillMetadata | undefined): boolean => options.forkSkills === true && skill?.context === "fork";

  function plan(state: SkillThreadState, { byName }: Rendering, own: SkillCall, calls: readonly SkillCall[] | undefined): SkillCallDecision {
    // A skill only the user may invoke is unknown to the model.
    const isAvailable = (name: string) => byName.get(name)?.disableModelInvocation !== true && byName.has(name);
    // A forked skill takes no slot: it is planned alone, and other calls do not count it.
    if (own.action === "load" && forks(byName.get(own.skill))) return { outcome: isAvailable(own.skill) ? "load" : "not-found" };
    const others = calls?.filter((call) => call.action !== "load" || call.id === own.id || !forks(byName.get(call.skill)));
    const step = others?.some((call) => call.id === own.id) ? others : [own];
    return planSkillCalls(step, { loaded: state.loaded, maxLoaded, isAvailable }).get(own.id)!;
  }

  function refuse(request: SkillRequest, tool: string, skill: string, decision: SkillCallDecision, available: readonly string[] = [], closest?: { names: readonly string[]; searchTool?: string }): SkillStep | undefined {
    if (decision.outcome === "load" || decision.outcome === "unload") return undefined;
    const text = refusalMessage(skill, decision, { available, maxLoaded, ...(closest ? { closest } : {}) })!;
    emit(request, { level: "warn", event: "skill_refused", message: `${tool}('${skill}') refused: ${decision.outcome}`, skill, reason: decision.outcome });
    return { ok: false, text };
  }

  // A load of an unknown skill names the skills there are or, in a large catalog, the closest.
  async function refuseLoad(request: SkillRequest, skill: string, decision: SkillCallDecision, cached: Rendering): Promise<SkillStep | undefined> {
    if (decision.outcome !== "not-found") return refuse(request, "load_skill", skill, decision);
    const available = (cached.searchable ??= modelSkills(cached.skills));
    if (available.length <= MAX_LISTED_SKILLS) return refuse(request, "load_skill", skill, decision, available.map((entry) => entry.name));
    const names = (await search(request, cached, skill.replace(/[-_]/g, " "), 3)).map((hit) => hit.name);
    return refuse(request, "load_skill", skill, decision, [], { names, ...((await offersSearchFor(request, cached)) ? { searchTool: SEARCH_TOOL } : {}) });
  }

  // Every ranker over the skills the model may load; several are fused by reciprocal rank.
  async function search(request: SkillRequest, cached: Rendering, query: string, limit: number): Promise<Array<{ name: string; score: number; skill: SkillMetadata }>> {
    const skills = (cached.searchable ??= modelSkills(cached.skills));
    const rankings = await Promise.all(rankers.map((rank) => rank(query, skills, rankers.length > 1 ? Math.max(limit, FUSION_DEPTH) : limit)));
    const ranked = rankings.length === 1 ? rankings[0]!.slice(0, limit) : fuseRankings(rankings, limit);
    return ranked.flatMap((hit) => {
      const skill = cached.byName.get(hit.name);
      return skill && !skill.disableModelInvocation ? [{ ...hit, skill }] : [];
    });
  }

  async function offersSearchFor(request: SkillRequest, cached: Rendering): Promise<boolean> {
    return offer === "always" || (offer === "auto" && overBudget(await catalogText(request, cached)));
  }

  function forkStep(skill: SkillMetadata, prepared: { content: string; operation: SkillOperation }, invokedWith?: string): SkillStep {
    const fork: SkillFork = { skill: skill.name, ...(skill.agent !== undefined ? { agent: skill.agent } : {}), allowedTools: skill.allowedTools };
    return { ok: true, text: forkTaskText(prepared.content, skill.name, invokedWith), operations: [prepared.operation], fork };
  }

  async function loadedSkill(request: SkillRequest, name: string): Promise<{ skill: SkillMetadata; source: SkillSource } | { error: string }> {
    if (!request.state.loaded.includes(name)) return { error: `Error: Skill '${name}' is not loaded. Load it with load_skill first.` };
    const skill = (await resolve(request)).byName.get(name);
    const source = skill && (await sourceOf(request, skill).catch(() => undefined));
    if (!skill || !source) return { error: `Error: Skill '${name}' is no longer available from its source.` };
    return { skill, source };
  }

  const engine: SkillEngine = {
    maxLoaded,

    async refresh(catalog, state, sink) {
      const snapshot = await catalog.refresh();
      const { skills, version } = catalogView(snapshot);
      if (!logged.has(snapshot)) {
        logged.add(snapshot);
        emitSkillsEvent(logger, undefined, { level: "info", event: "skills_discovered", message: `Discovered ${skills.length} skills from ${catalog.sources.length} sources`, skills: skills.length, sources: catalog.sources.length });
        for (const diagnostic of snapshot.diagnostics) {
          if (diagnostic.severity === "info") continue;
          const { message, ...fields } = diagnostic;
          emitSkillsEvent(logger, undefined, { ...fields, level: diagnostic.severity === "error" ? "error" : "warn", event: "skill_diagnostic", message: `${diagnostic.file}: ${message}` });
        }
      }
      remember(version, skills);
      if (state.catalogVersion === version) return undefined;
      const gone = state.loaded.filter((name) => !snapshot.get(name));
      for (const skill of gone) emitSkillsEvent(logger, sink, { level: "warn", event: "skill_unloaded", message: `Skill '${skill}' unloaded: it is no longer in any source`, skill });
      return { skills, version, operations: gone.map((skill) => ({ kind: "unload", skill })) };
    },

    async systemPrompt(request, visibleTexts) {
      const { state } = request;
      const rendering = await resolve(request);
      const loaded = loadedSkills(state, rendering);
      const union = policy === "restrict" ? allowedToolUnion(loaded) : undefined;
      const dynamic = renderLoadedSkills({ loaded, resources: state.resources, maxLoaded, policy, ...(union ? { allowedTools: union } : {}) });
      // `+` keeps the large, cached catalog text shared instead of copying it on every call.
      let section = (await catalogText(request, rendering)).text + "\n\n" + dynamic;
      // Checked without awaiting anything: this runs on every model call, and nothing is dropped
      // almost always.
      const dropped = loaded.length > 0 && visibleTexts ? droppedSkills(loaded, visibleTexts()) : [];
      if (dropped.length > 0) {
        const read = (skill: SkillMetadata) => sourceOf(request, skill).then((source) => readSkillText(source, skill)).catch(() => undefined);
        const restored = await restoreDroppedSkills(dropped, read);
        if (restored.text) {
          section += "\n\n" + restored.text;
          for (const skill of restored.skills) emit(request, { level: "info", event: "skill_restored", message: `Skill '${skill}' re-attached after its load result left the context`, skill });
        }
      }
      return section;
    },

    async catalog(request) {
      return catalogText(request, await resolve(request));
    },

    async offersSearch(request) {
      return offersSearchFor(request, await resolve(request));
    },

    async search(request, input) {
      const query = input.query.trim();
      const limit = Math.min(Math.max(Math.floor(input.limit ?? DEFAULT_SEARCH_LIMIT), 1), MAX_SEARCH_LIMIT);
      if (query === "") return { ok: false, text: "Error: The search query is empty. Describe the task in a few words.", results: [] };
      const hits = await search(request, await resolve(request), query, limit);
      const results = hits.map(({ skill, score }) => ({ name: skill.name, description: skill.description, ...(skill.argumentHint !== undefined ? { argumentHint: skill.argumentHint } : {}), path: skill.path, score }));
      emit(request, { level: "info", event: "skills_searched", message: `search_skills('${query}') found ${results.length} skills`, query, results: results.length });
      return { ok: true, text: searchResultText(query, results), results };
    },

    async load(request, call, calls) {
      const cached = await resolve(request);
      const decision = plan(request.state, cached, { id: call.id, action: "load", skill: call.skill }, calls);
      const skill = cached.byName.get(call.skill);
      const refusal = await refuseLoad(request, call.skill, decision, cached);
      if (refusal || !skill) return refusal ?? { ok: false, text: `Error: Skill '${call.skill}' not found.` };
      const prepared = await prepare(request, skill, call.arguments);
      if ("error" in prepared) return { ok: false, text: prepared.error };
      if (forks(skill)) return forkStep(skill, prepared);
      const slotsUsed = request.state.loaded.length + 1;
      emit(request, { level: "info", event: "skill_loaded", message: `Skill '${skill.name}' loaded (${prepared.resources} resources discovered)`, skill: skill.name, resources: prepared.resources, slotsUsed, maxLoaded });
      return { ok: true, text: prepared.content, operations: [prepared.operation] };
    },

    unload(request, call, calls) {
      const decision = plan(request.state, renderingOf(request.state), { id: call.id, action: "unload", skill: call.skill }, calls);
      const refusal = refuse(request, "unload_skill", call.skill, decision);
      if (refusal) return refusal;
      const stillLoaded = request.state.loaded.filter((name) => name !== call.skill);
      emit(request, { level: "info", event: "skill_unloaded", message: `Skill '${call.skill}' unloaded (${maxLoaded - stillLoaded.length}/${maxLoaded} slots available)`, skill: call.skill, slotsUsed: stillLoaded.length, maxLoaded });
      return { ok: true, text: unloadResultText(call.skill, stillLoaded, maxLoaded), operations: [{ kind: "unload", skill: call.skill }] };
    },

    parseCommand(text, state) {
      return parseSkillCommand(text, renderingOf(state).byName);
    },

    async invoke(request, command) {
      const { skill } = command;
      if (!isUserInvocable(skill)) return { ok: false, text: `Error: Skill '${skill.name}' cannot be invoked by the user (user-invocable: false).` };
      const prepared = await prepare(request, skill, command.arguments);
      if ("error" in prepared) return { ok: false, text: prepared.error };
      if (forks(skill)) return forkStep(skill, prepared, command.arguments);
      const loaded = request.state.loaded;
      const evicted = !loaded.includes(skill.name) && loaded.length >= maxLoaded ? loaded[0] : undefined;
      const operations: SkillOperation[] = evicted ? [{ kind: "unload", skill: evicted }, prepared.operation] : [prepared.operation];
      if (evicted) {
        emit(request, { level: "info", event: "skill_unloaded", message: `Skill '${evicted}' unloaded to make room for the user's /${skill.name}`, skill: evicted, reason: "user-invocation" });
      }
      emit(request, { level: "info", event: "skill_invoked", message: `Skill '${skill.name}' invoked by the user (${prepared.resources} resources discovered)`, skill: skill.name, arguments: command.arguments });
      return { ok: true, text: invocationResultText(prepared.content, skill.name, command.arguments, evicted, maxLoaded), operations };
    },

    async invokeCommands(request, texts, invoke = engine.invoke) {
      let state = request.state;
      const operations: SkillOperation[] = [];
      const invocations: SkillInvocation[] = [];
      for (const [at, text] of texts.entries()) {
        const command = text === undefined ? undefined : parseSkillCommand(text, renderingOf(state).byName);
        if (!command) continue;
        const step = await invoke({ ...request, state }, command);
        const fork = step.ok && step.fork ? { fork: { ...step.fork, operations: step.operations } } : {};
        invocations.push({ at, command, ok: step.ok, text: step.ok ? step.text : `${text}\n\n[skillset: /${command.skill.name} could not be invoked. ${step.text}]`, ...fork });
        if (!step.ok || step.fork) continue;
        operations.push(...step.operations);
        state = applySkillOperations(state, step.operations);
      }
      return { state, operations, invocations };
    },

    async inherit(request, parent, visibleTexts) {
      const { byName } = await resolve(request);
      const plan = planInheritance(parent, { loaded: request.state.loaded, maxLoaded, visibleTexts }, byName);
      for (const { skill, reason } of plan.skipped) {
        const why = reason === "no-slot" ? `all ${maxLoaded} slots are taken` : "it is not in this agent's catalog";
        emit(request, { level: "warn", event: "skill_not_inherited", message: `Skill '${skill}' of the parent agent not inherited: ${why}`, skill, reason });
      }
      if (plan.inherited.length > 0) emit(request, { level: "info", event: "skills_inherited", message: `Inherited ${plan.inherited.length} loaded skills from the parent agent: ${plan.inherited.join(", ")}`, skills: plan.inherited });
      return { operations: plan.operations, instructions: plan.instructions };
    },

    async readResource(request, input) {
      const found = await loadedSkill(request, input.skill);
      if ("error" in found) return { ok: false, text: found.error };
      const checked = checkResourcePath(input.path);
      if (!checked.ok) return { ok: false, text: `Error: Cannot read '${input.path}': ${checked.reason}.` };
      if (!found.source.readFile) return { ok: false, text: `Error: The source of skill '${input.skill}' cannot read resources.` };
      try {
        const bytes = await found.source.readFile(found.skill, checked.path, MAX_RESOURCE_BYTES);
        return { ok: true, text: renderResourcePage(checked.path, bytes, input.offset ?? 0, input.limit ?? DEFAULT_RESOURCE_LINES) };
      } catch (error) {
        const message = SkillsetError.isInstance(error) ? error.message : String(error);
        return { ok: false, text: `Error: Cannot read '${checked.path}' in skill '${input.skill}': ${message}.` };
      }
    },

    async runScript(request, input) {
      const { skill: name, command } = input;
      if (!options.scripts) return { ok: false, text: "Error: Running scripts is not enabled for this agent." };
      const found = await loadedSkill(request, name);
      if ("error" in found) return { ok: false, text: found.error };
      if (found.source.runsCommands === false) {
        emit(request, { level: "warn", event: "script_refused", message: `run_skill_script refused for skill '${name}': its source does not run commands`, skill: name, command });
        return { ok: false, text: `Error: Command refused: skill '${name}' comes from a source whose scripts are not run here; read its files instead.` };
      }
      const { executor, defaultAllowedCommands = DEFAULT_ALLOWED_COMMANDS } = options.scripts;
      const outcome = await runSkillCommand({ command, skillDir: skillDirectory(found.skill), allowedCommands: allowedCommandsOf(found.skill, defaultAllowedCommands), executor, skillName: name });
      if (!outcome.ok) {
        emit(request, { level: "warn", event: "script_refused", message: `run_skill_script refused for skill '${name}': ${outcome.reason}`, skill: name, command });
        return { ok: false, text: `Error: Command refused: ${outcome.reason}.` };
      }
      const { result, argv } = outcome;
      const failed = result.timedOut || result.killedReason !== undefined || result.exitCode !== 0;
      emit(request, {
        level: failed ? "warn" : "info",
        event: "script_ran",
        message: `Skill '${name}' ran '${argv[0]}': exit ${result.exitCode ?? result.signal}${result.timedOut ? " (timed out)" : ""}`,
        skill: name,
        argv,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: Math.round(result.durationMs),
      });
      return { ok: !failed, text: formatScriptResult(command, result) };
    },

    async loadedSkills(request) {
      return loadedSkills(request.state, await resolve(request));
    },

    toolRefusal(request, tool, alwaysAllowed) {
      if (policy !== "restrict") return undefined;
      const { state } = request;
      const loaded = loadedSkills(state);
      const union = allowedToolUnion(loaded);
      if (isToolAllowed(tool, union, alwaysAllowed) || disclosedTools(loaded).includes(tool)) return undefined;
      const message = restrictedToolMessage(tool, union!, state.loaded);
      emit(request, { level: "warn", event: "tool_restricted", message, tool });
      return message;
    },
  };
  return engine;
}

// A skill's `allowed-tools` read as a command allow-list; a skill that declares none gets the default.
function allowedCommandsOf(skill: SkillMetadata, defaults: readonly string[]): readonly string[] {
  return skill.allowedTools.length > 0 ? skill.allowedTools : defaults;
}

interface Rendering {
  skills: readonly SkillMetadata[];
  byName: Map<string, SkillMetadata>;
  /** The skills the model may load: what search ranks. */
  searchable?: SkillMetadata[];
  catalog?: Promise<RenderedCatalog>;
}

function rendering(skills: readonly SkillMetadata[]): Rendering {
  return { skills, byName: new Map(skills.map((skill) => [skill.name, skill])) };
}

const EMPTY_RENDERING = rendering([]);

// More loadable skills than this and an unknown name gets the closest matches, not the whole list.
const MAX_LISTED_SKILLS = 50;
// How many candidates each ranker gives when several are fused.
const FUSION_DEPTH = 50;
/** Threads' catalogs kept in memory, by version. */
const MAX_CACHED_CATALOGS = 64;
const SEARCH_TOOL = "search_skills";
const DEFAULT_SEARCH_LIMIT = 5;
const MAX_SEARCH_LIMIT = 25;

function modelSkills(skills: readonly SkillMetadata[]): SkillMetadata[] {
  return skills.filter((skill) => !skill.disableModelInvocation);
}

function budgetEvent(catalog: RenderedCatalog, budget: number, searchable: boolean): SkillsLogEntry {
  const parts = [`${catalog.full.length} whole`, `${catalog.short.length} shortened`, `${catalog.named.length} by name only`, `${catalog.hidden.length} left out${searchable ? " (search_skills finds them)" : " (no search tool: the model cannot see them)"}`];
  return {
    level: catalog.hidden.length > 0 && !searchable ? "warn" : "info",
    event: "catalog_over_budget",
    message: `The skills catalog is over its budget of ${budget} tokens: ${parts.join(", ")}; it now takes ${catalog.tokens} tokens`,
    budget,
    tokens: catalog.tokens,
    full: catalog.full.length,
    shortened: catalog.short,
    namedOnly: catalog.named,
    leftOut: catalog.hidden,
  };
}

// What search_skills tells the model: each skill as a catalog line would, and what to do next.
function searchResultText(query: string, results: readonly SkillSearchResult[]): string {
  if (results.length === 0) return `No skills match '${query}'. Try other words, or go on without a skill.`;
  const lines = results.map((result) => `- ${result.name}${result.argumentHint ? ` (arguments: ${result.argumentHint})` : ""}: ${result.description.replace(/\s+/g, " ").trim()}`);
  return `Skills matching '${query}', best first:\n${lines.join("\n")}\nLoad one with load_skill to use it.`;
}

// Model-facing error strings for a skill that cannot be read; each names the file.
function readFailureMessage(path: string, error: unknown): string {
  if (SkillsetError.isInstance(error) && (error.code === "too-large" || error.code === "decode-failed")) return `Error: ${error.message}`;
  const reason = error instanceof Error ? error.message : String(error);
  return `Error: Failed to read skill file at ${path}: ${reason}`;
}
