import type { Catalog } from "../catalog/catalog.js";
import type { InheritedSkills } from "../loaded/inherit-skills.js";
import type { SkillCall } from "../loaded/plan-skill-calls.js";
import type { RenderedCatalog } from "../catalog/render-catalog.js";
import type { SkillCommand } from "../instructions/skill-command.js";
import type { SkillsLogger } from "../skill-events.js";
import type { SkillLocation, SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import type { SkillResource } from "../resources/skill-resources.js";
import type { SkillRanker } from "../search/skill-search.js";
import type { SkillSource } from "../skill-source.js";
import type { AllowedToolsPolicy } from "../tools/tool-policy.js";
import type { ScriptExecutor } from "../../exec/script-executor.js";
import type { CodeModeOptions, CodeReply, CodeToolContext, CodeTools } from "./code-mode-types.js";

// The engine's public shapes, apart so its parts name them without importing the engine (which re-exports them).

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
  /**
   * How load results name a skill's `SKILL.md` and its folder (the base of its resource listing). Default: the
   * paths of the skill's source. A server names them by the URIs it serves, so its clients do not learn its disk.
   */
  skillLocation?: (skill: SkillMetadata) => SkillLocation;
  /** Runs {@link SkillEngine.runScript}; without it, scripts are refused. */
  scripts?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /**
   * Runs the `` !`command` `` and ```` ```! ```` blocks of a skill's instructions when they are rendered, under
   * the same rules as scripts. Off unless given: the text then says the command was not run.
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
  /**
   * Checks a skill each time it is about to be loaded or invoked, before anything of it is read
   * (e.g. `skillset/node`'s `lockfileVerifier`, against a `skills-lock.json`). `undefined`: go
   * ahead. A {@link SkillVerification} emits `skill_unverified`; with `refuse`, the load or
   * `/name` fails with an error naming the skill and the reason. Called on every load, so it
   * should cache its own work.
   */
  verifySkill?: (skill: SkillMetadata) => SkillVerification | undefined | Promise<SkillVerification | undefined>;
  /** Code mode: {@link SkillEngine.runCode} runs the model's JavaScript (see {@link CodeModeOptions}). Off unless given. */
  codeMode?: CodeModeOptions;
  /** Receives structured log entries; nothing is logged without it. */
  logger?: SkillsLogger;
}

/** A skill that did not pass {@link SkillEngineOptions.verifySkill}. */
export interface SkillVerification {
  /** Refuse the skill; otherwise it loads and only the event reports the problem. */
  refuse: boolean;
  /** Why, as a clause the model and the event can read: e.g. `its files differ from skills-lock.json`. */
  reason: string;
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
  /** The file tools of the agent asking, when its host knows them: the prompt and results name these. */
  fileTools?: SkillFileTools;
}

/**
 * The tools an agent has for a skill's files, as its host found them; the prompt and load results
 * name only these, so every tool they point to exists.
 */
export interface SkillFileTools {
  /** Reads a loaded skill's resources. */
  read: string;
  /** Runs a loaded skill's scripts; none: the prompt does not offer to run them. */
  run?: string;
  /** Folders where the agent can write new skills, shown when there are none yet. */
  createSkillsIn?: readonly string[];
}

/**
 * The outcome of a state-changing call: on success the text for the model and the operations the
 * host applies to its loaded-skills state; on refusal only the text, and nothing changes.
 */
export type SkillStep =
  { ok: true; text: string; operations: SkillOperation[]; fork?: SkillFork } | { ok: false; text: string };

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
  /** Skills that match the query, best first (empty when none matches well). */
  results: SkillSearchResult[];
  /** Skills the rankers judged below their relevance floor, best first: shown apart, as weak matches. */
  weakMatches: SkillSearchResult[];
}

/** The catalog to write to a thread, and the loaded skills that left it. */
export interface CatalogRefresh {
  skills: SkillMetadata[];
  version: string;
  /** The skill of `skills` with this name, by the map the engine keeps per catalog version. */
  skill(name: string): SkillMetadata | undefined;
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
  refresh(
    catalog: Catalog,
    state: Pick<SkillThreadState, "loaded" | "catalogVersion">,
    emit?: SkillRequest["emit"],
  ): Promise<CatalogRefresh | undefined>;
  /** The catalog of the request's sources as they are now (an unchanged library costs their scans). */
  currentCatalog(request: SkillRequest): Promise<{ skills: readonly SkillMetadata[]; version: string }>;
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
  load(
    request: SkillRequest,
    call: { skill: string; arguments?: string; id: string },
    calls?: readonly SkillCall[],
  ): Promise<SkillStep>;
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
  inherit(
    request: SkillRequest,
    parent: InheritedSkills,
    visibleTexts: readonly string[],
  ): Promise<{ operations: SkillOperation[]; instructions: string[] }>;
  /** Reads a file of a loaded skill, a page of lines at a time. */
  readResource(
    request: SkillRequest,
    input: { skill: string; path: string; offset?: number; limit?: number },
  ): Promise<SkillReply>;
  /** Runs a command in a loaded skill's folder, if its allow-list permits it. */
  runScript(request: SkillRequest, input: { skill: string; command: string }): Promise<SkillReply>;
  /** The model's `run_code`, in `request.sessionId`'s sandbox; the code calls allowed `tools` as `tools.<camelCase>()`. */
  runCode(
    request: SkillRequest,
    input: { code: string },
    tools?: CodeTools,
    host?: CodeToolContext,
  ): Promise<CodeReply>;
  /** With code mode, what the loaded skills' modules export, as the prompt shows it; `""` when none has one. */
  codeModules(request: SkillRequest): Promise<string>;
  /** Frees a thread's code sandbox (e.g. when the thread ends), or, without a thread, every sandbox for good. */
  releaseCode(threadId?: string): void;
  /** The loaded skills, in load order, as the catalog describes them (e.g. for the tools they bring). */
  loadedSkills(request: SkillRequest): Promise<SkillMetadata[]>;
  /**
   * Under `"restrict"`, the refusal for a tool the loaded skills do not allow; else `undefined`.
   * A loaded skill's own tools (`metadata.include_tools`) are always allowed.
   */
  toolRefusal(
    request: Pick<SkillRequest, "state" | "emit">,
    tool: string,
    alwaysAllowed: ReadonlySet<string>,
  ): string | undefined;
  /**
   * The `verifySkill` check for a skill whose files a host serves itself (an MCP server's
   * resources): why it is refused (`Skill 'x' is refused: …`), else `undefined`; a
   * `skill_unverified` event for any problem, as for loads and reads.
   */
  verifyRead(request: Pick<SkillRequest, "emit">, skill: SkillMetadata): Promise<string | undefined>;
}
