import { Command } from "@langchain/langgraph";
import { createMiddleware, tool, ToolMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import { createCatalog, type Catalog } from "../core/catalog.js";
import { SkillsetError } from "../core/errors.js";
import { planSkillCalls, type SkillCall } from "../core/plan-skill-calls.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH, renderCatalogMarkdown } from "../core/prompt-markdown.js";
import { renderLoadedSkills } from "../core/prompt-loaded.js";
import type { SkillMetadata } from "../core/skill-metadata.js";
import type { SkillOperation } from "../core/skill-operations.js";
import { DEFAULT_RESOURCE_LIMITS, discoverResources } from "../core/skill-resources.js";
import { MAX_SKILL_FILE_BYTES, type SkillSource } from "../core/skill-source.js";
import {
  LOAD_SKILL_DESCRIPTION,
  UNLOAD_SKILL_DESCRIPTION,
  loadResultText,
  refusalMessage,
  unloadResultText,
} from "../core/skill-tool-messages.js";
import { allowedToolUnion, isToolAllowed, restrictedToolMessage } from "../core/tool-policy.js";
import { createBackendSource, type SkillsBackend } from "../sources/backend-source.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../exec/command-allow-list.js";
import type { ScriptExecutor } from "../exec/script-executor.js";
import { catalogView } from "./catalog-view.js";
import { messagesAfterSummarization, stateForBackend } from "./graph-context.js";
import { createReadResourceTool, createRunScriptTool } from "./resource-tools.js";
import { restoreDroppedSkills } from "./restore-dropped-skills.js";
import { emitSkillsEvent, type SkillsLogger } from "./skills-logger.js";
import { skillsStateSchema, type SkillsStateView } from "./skills-state.js";

/** The middleware's name. deepagents merges middleware by name, so this replaces its built-in one. */
export const SKILLS_MIDDLEWARE_NAME = "SkillsMiddleware";

/** Tools that `"restrict"` never blocks, besides the skill tools and `alwaysAllowedTools`. */
export const ALWAYS_ALLOWED_TOOLS = ["read_file", "ls", "glob", "grep", "write_todos", "read_skill_resource", "run_skill_script"] as const;

// `never` accepts every factory signature, e.g. deepagents' `(runtime: BackendRuntime) => backend`.
type BackendFactory = (runtime: never) => SkillsBackend;

const optionsSchema = z.object({
  /** Skill sources, lowest precedence first; strings are local folders, or paths on `backend`. */
  sources: z.array(z.union([z.string().min(1), z.custom<SkillSource>(isSkillSource, "a SkillSource")])).min(1),
  /** A deepagents backend, or a factory `(runtime) => backend`, to read string sources through. */
  backend: z.custom<SkillsBackend | BackendFactory>((value) => typeof value === "object" || typeof value === "function").optional(),
  /** Find skills at any depth below each string source. @default false */
  recursive: z.boolean().default(false),
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills: z.number().int().positive().default(10),
  /** `"recommend"` shows `allowed-tools`; `"restrict"` also refuses other tools while skills declare them. @default "recommend" */
  allowedToolsPolicy: z.enum(["recommend", "restrict"]).default("recommend"),
  /** Tool names `"restrict"` never blocks, besides {@link ALWAYS_ALLOWED_TOOLS}. @default [] */
  alwaysAllowedTools: z.array(z.string()).default([]),
  /** Replaces `CATALOG_GUIDANCE` (from `skillset`), the text before the skills list; `{load}` and `{unload}` become the tool names. */
  systemPrompt: z.string().optional(),
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength: z.number().int().positive().default(DEFAULT_MAX_DESCRIPTION_LENGTH),
  /**
   * Add `read_skill_resource`, for agents without file tools (plain `createAgent`). Under
   * deepagents leave it off: the agent reads resources with its own `read_file`.
   * @default false
   */
  readResourceTool: z.boolean().default(false),
  /**
   * Add `run_skill_script`, running commands through `executor` (e.g. `createLocalExecutor()` from
   * `skillset/node`) when the skill's `allowed-tools`, read as a command allow-list, permit them;
   * skills that declare none may run `defaultAllowedCommands` (their `scripts/` files).
   */
  runScripts: z
    .object({
      executor: z.custom<ScriptExecutor>((value) => typeof value === "object" && value !== null && typeof (value as ScriptExecutor).run === "function", "a ScriptExecutor"),
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /** The tool the model reads resources with, named in the prompt. @default "read_skill_resource" with `readResourceTool`, else "read_file" */
  resourceReadTool: z.string().optional(),
  /** The tool the model runs scripts with, named in the prompt (e.g. deepagents' `execute`). @default "run_skill_script" with `runScripts` */
  scriptRunTool: z.string().optional(),
  /** Receives structured log entries; nothing is logged without it. */
  logger: z.custom<SkillsLogger>((value) => typeof value === "function").optional(),
});

/** Options of {@link createSkillsMiddleware}. */
export type SkillsMiddlewareOptions = z.input<typeof optionsSchema>;

/**
 * Agent Skills for LangChain.js v1 `createAgent` and deepagents `createDeepAgent`: a catalog in
 * the system prompt, `load_skill` / `unload_skill` tools, loaded skills tracked in graph state
 * under a budget, resources discovered on load, and an optional `allowed-tools` restriction.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [createSkillsMiddleware({ sources: ["./skills"] })] });
 * ```
 */
export function createSkillsMiddleware(options: SkillsMiddlewareOptions) {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new SkillsetError("invalid-options", `createSkillsMiddleware: ${z.prettifyError(parsed.error)}`);
  }
  const settings = parsed.data;
  const { maxLoadedSkills: maxLoaded, logger } = settings;
  const readTool = settings.resourceReadTool ?? (settings.readResourceTool ? "read_skill_resource" : "read_file");
  const runTool = settings.scriptRunTool ?? (settings.runScripts ? "run_skill_script" : undefined);
  const alwaysAllowed = new Set<string>(["load_skill", "unload_skill", ...ALWAYS_ALLOWED_TOOLS, ...settings.alwaysAllowedTools]);

  // Sources over a fixed backend or local folders are shared by every thread: they hold only
  // what they read from the skills. A backend factory is bound to one run, so it gets fresh ones.
  let sharedCatalog: Promise<Catalog> | undefined;
  const catalogFor = (runtime: unknown): Promise<Catalog> => {
    const backend = settings.backend;
    if (typeof backend === "function") return Promise.resolve(buildCatalog(settings.sources, () => backend(runtime as never), settings.recursive));
    sharedCatalog ??= Promise.resolve().then(() => buildCatalogShared(settings.sources, backend, settings.recursive));
    return sharedCatalog;
  };

  // Derived from the catalog only, keyed by its content hash: safe to share between threads.
  const catalogCache = new Map<string, { text: string; byName: Map<string, SkillMetadata> }>();
  const renderCatalog = (skills: readonly SkillMetadata[]) => ({
    text: renderCatalogMarkdown(skills, {
      maxDescriptionLength: settings.maxDescriptionLength,
      resourceReadTool: readTool,
      allowedToolsPolicy: settings.allowedToolsPolicy,
      ...(runTool ? { scriptRunTool: runTool } : {}),
      ...(settings.systemPrompt ? { guidance: settings.systemPrompt } : {}),
    }),
    byName: new Map(skills.map((skill) => [skill.name, skill])),
  });
  const catalogFromState = (version: string | undefined, skills: readonly SkillMetadata[]) => {
    // A catalog this middleware did not write has no version: render it, but do not cache it.
    if (!version) return renderCatalog(skills);
    let cached = catalogCache.get(version);
    if (cached === undefined) {
      cached = renderCatalog(skills);
      if (catalogCache.size >= 16) catalogCache.delete(catalogCache.keys().next().value!);
      catalogCache.set(version, cached);
    }
    return cached;
  };
  const lastLogged = new WeakSet<object>();

  const loadSkill = tool(
    async ({ skill_name: name }: { skill_name: string }, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const writer = runtime.writer as ((chunk: unknown) => void) | undefined;
      const callId = runtime.toolCallId;
      const skills = state.skillsMetadata ?? [];
      const skill = skills.find((entry) => entry.name === name);
      const decision = planFor(state, callId, { action: "load", skill: name }, skills, maxLoaded);
      const refusal = refusalMessage(name, decision, { available: skills.filter((entry) => !entry.disableModelInvocation).map((entry) => entry.name), maxLoaded });
      if (refusal || !skill) {
        emitSkillsEvent(logger, writer, { level: "warn", event: "skill_refused", message: `load_skill('${name}') refused: ${decision.outcome}`, skill: name, reason: decision.outcome });
        return errorMessage(refusal ?? `Error: Skill '${name}' not found.`, callId, "load_skill");
      }

      const catalog = await catalogFor({ ...runtime, state });
      const source = catalog.sources.find((candidate) => candidate.id === skill.source);
      let content: string;
      try {
        if (!source) throw new SkillsetError("read-failed", `its source '${skill.source}' is not configured in this agent`);
        const bytes = await source.readSkill(skill);
        if (bytes.byteLength > MAX_SKILL_FILE_BYTES) throw new SkillsetError("too-large", "");
        content = decodeSkill(bytes);
      } catch (error) {
        const message = loadFailureMessage(skill.path, error);
        emitSkillsEvent(logger, writer, { level: "error", event: "skill_read_failed", message, skill: name, path: skill.path });
        return errorMessage(message, callId, "load_skill");
      }
      const discovery = await discoverResources(source, skill, DEFAULT_RESOURCE_LIMITS);
      if (discovery.error) {
        emitSkillsEvent(logger, writer, { level: "warn", event: "resource_discovery_failed", message: `Failed to list resources for skill '${name}': ${discovery.error}`, skill: name });
      }
      const operation: SkillOperation = { kind: "load", skill: name, resources: discovery.resources, ...(discovery.truncated ? { resourcesTruncated: true } : {}) };
      const loadedCount = (state.skillsLoaded ?? []).length + 1;
      emitSkillsEvent(logger, writer, {
        level: "info",
        event: "skill_loaded",
        message: `Skill '${name}' loaded (${discovery.resources.length} resources discovered)`,
        skill: name,
        resources: discovery.resources.length,
        slotsUsed: loadedCount,
        maxLoaded,
      });
      return new Command({
        update: {
          skillsLoaded: [operation],
          skillResources: [operation],
          messages: [new ToolMessage({ content: loadResultText(skill, content, discovery, readTool, settings.allowedToolsPolicy), tool_call_id: callId, name: "load_skill" })],
        },
      });
    },
    { name: "load_skill", description: LOAD_SKILL_DESCRIPTION, schema: z.object({ skill_name: z.string().describe("Name of the skill to load, from the skills list.") }) },
  );

  const unloadSkill = tool(
    async ({ skill_name: name }: { skill_name: string }, runtime: ToolRuntime) => {
      const state = runtime.state as SkillsStateView;
      const writer = runtime.writer as ((chunk: unknown) => void) | undefined;
      const skills = state.skillsMetadata ?? [];
      const decision = planFor(state, runtime.toolCallId, { action: "unload", skill: name }, skills, maxLoaded);
      const refusal = refusalMessage(name, decision, { available: [], maxLoaded });
      if (refusal) {
        emitSkillsEvent(logger, writer, { level: "warn", event: "skill_refused", message: `unload_skill('${name}') refused: ${decision.outcome}`, skill: name, reason: decision.outcome });
        return errorMessage(refusal, runtime.toolCallId, "unload_skill");
      }
      const stillLoaded = (state.skillsLoaded ?? []).filter((loaded) => loaded !== name);
      emitSkillsEvent(logger, writer, {
        level: "info",
        event: "skill_unloaded",
        message: `Skill '${name}' unloaded (${maxLoaded - stillLoaded.length}/${maxLoaded} slots available)`,
        skill: name,
        slotsUsed: stillLoaded.length,
        maxLoaded,
      });
      const operation: SkillOperation = { kind: "unload", skill: name };
      return new Command({
        update: {
          skillsLoaded: [operation],
          skillResources: [operation],
          messages: [new ToolMessage({ content: unloadResultText(name, stillLoaded, maxLoaded), tool_call_id: runtime.toolCallId, name: "unload_skill" })],
        },
      });
    },
    { name: "unload_skill", description: UNLOAD_SKILL_DESCRIPTION, schema: z.object({ skill_name: z.string().describe("Name of the loaded skill to unload.") }) },
  );

  const tools = [
    loadSkill,
    unloadSkill,
    ...(settings.readResourceTool ? [createReadResourceTool({ catalogFor, logger })] : []),
    ...(settings.runScripts ? [createRunScriptTool({ catalogFor, logger, ...settings.runScripts })] : []),
  ];

  return createMiddleware({
    name: SKILLS_MIDDLEWARE_NAME,
    stateSchema: skillsStateSchema,
    tools,

    // Decision 4: refresh the catalog once per invocation; write it only when it changed.
    beforeAgent: async (state, runtime) => {
      const view = state as SkillsStateView;
      const writer = (runtime as { writer?: (chunk: unknown) => void }).writer;
      const catalog = await catalogFor({ ...runtime, state: stateForBackend(state) });
      const snapshot = await catalog.refresh();
      const { skills, version } = catalogView(snapshot);
      if (!lastLogged.has(snapshot)) {
        lastLogged.add(snapshot);
        emitSkillsEvent(logger, undefined, { level: "info", event: "skills_discovered", message: `Discovered ${skills.length} skills from ${catalog.sources.length} sources`, skills: skills.length, sources: catalog.sources.length });
        for (const diagnostic of snapshot.diagnostics) {
          if (diagnostic.severity === "info") continue;
          const { message, ...fields } = diagnostic;
          emitSkillsEvent(logger, undefined, { ...fields, level: diagnostic.severity === "error" ? "error" : "warn", event: "skill_diagnostic", message: `${diagnostic.file}: ${message}` });
        }
      }
      if (view._skillsCatalogVersion === version) return undefined;
      const gone = (view.skillsLoaded ?? []).filter((name) => !snapshot.get(name));
      const removals: SkillOperation[] = gone.map((skill) => ({ kind: "unload", skill }));
      for (const skill of gone) {
        emitSkillsEvent(logger, writer, { level: "warn", event: "skill_unloaded", message: `Skill '${skill}' unloaded: it is no longer in any source`, skill });
      }
      return {
        skillsMetadata: skills,
        _skillsCatalogVersion: version,
        ...(removals.length > 0 ? { skillsLoaded: removals, skillResources: removals } : {}),
      };
    },

    // Decision 5: the stable catalog first, then what loads and unloads change.
    wrapModelCall: async (request, handler) => {
      const state = request.state as SkillsStateView;
      const catalog = catalogFromState(state._skillsCatalogVersion, state.skillsMetadata ?? []);
      const loadedNames = state.skillsLoaded ?? [];
      const loaded = loadedNames.flatMap((name) => catalog.byName.get(name) ?? []);
      const union = settings.allowedToolsPolicy === "restrict" ? allowedToolUnion(loaded) : undefined;
      const dynamic = renderLoadedSkills({ loaded, resources: state.skillResources ?? {}, maxLoaded, policy: settings.allowedToolsPolicy, ...(union ? { allowedTools: union } : {}) });
      // `+` keeps the large, cached catalog text shared instead of copying it on every call.
      let section = "\n\n" + catalog.text + "\n\n" + dynamic;
      if (loaded.length > 0) {
        const messages = messagesAfterSummarization(request.messages);
        const restored = await restoreDroppedSkills(loaded, messages, (skill) => readForRestore(skill, request));
        if (restored.text) {
          section += "\n\n" + restored.text;
          for (const skill of restored.skills) {
            emitSkillsEvent(logger, undefined, { level: "info", event: "skill_restored", message: `Skill '${skill}' re-attached after its load result left the context`, skill });
          }
        }
      }
      return handler({ ...request, systemMessage: request.systemMessage.concat(section) });
    },

    wrapToolCall:
      settings.allowedToolsPolicy === "restrict"
        ? async (request, handler) => {
            const state = request.state as SkillsStateView;
            const catalog = catalogFromState(state._skillsCatalogVersion, state.skillsMetadata ?? []);
            const loadedNames = state.skillsLoaded ?? [];
            const union = allowedToolUnion(loadedNames.flatMap((name) => catalog.byName.get(name) ?? []));
            const name = request.toolCall.name;
            if (isToolAllowed(name, union, alwaysAllowed)) return handler(request);
            const message = restrictedToolMessage(name, union!, loadedNames);
            emitSkillsEvent(logger, (request.runtime as { writer?: (chunk: unknown) => void }).writer, { level: "warn", event: "tool_restricted", message, tool: name });
            return errorMessage(message, request.toolCall.id ?? "", name);
          }
        : undefined,
  });

  async function readForRestore(skill: SkillMetadata, request: { state: unknown; runtime: unknown }): Promise<string | undefined> {
    try {
      const catalog = await catalogFor({ ...(request.runtime as object), state: stateForBackend(request.state as object) });
      const source = catalog.sources.find((candidate) => candidate.id === skill.source);
      return source ? decodeSkill(await source.readSkill(skill)) : undefined;
    } catch {
      return undefined;
    }
  }
}

function planFor(state: SkillsStateView, callId: string, own: Omit<SkillCall, "id">, skills: readonly SkillMetadata[], maxLoaded: number) {
  const calls = siblingSkillCalls(state.messages ?? [], callId);
  const plan = planSkillCalls(calls.some((call) => call.id === callId) ? calls : [{ id: callId, ...own }], {
    loaded: state.skillsLoaded ?? [],
    maxLoaded,
    lookup: (name) => {
      const skill = skills.find((entry) => entry.name === name);
      return skill ? (skill.disableModelInvocation ? "user-only" : "available") : undefined;
    },
  });
  return plan.get(callId)!;
}

// The skill calls of the AI message that made this call, in the message's order: every call of
// one step sees the same message, so all of them plan the same way (decision 2).
function siblingSkillCalls(messages: readonly unknown[], callId: string): SkillCall[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const toolCalls = (messages[index] as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }).tool_calls;
    if (!toolCalls?.some((call) => call.id === callId)) continue;
    return toolCalls.flatMap((call) =>
      (call.name === "load_skill" || call.name === "unload_skill") && call.id && typeof call.args.skill_name === "string"
        ? [{ id: call.id, action: call.name === "load_skill" ? ("load" as const) : ("unload" as const), skill: call.args.skill_name }]
        : [],
    );
  }
  return [];
}

function errorMessage(content: string, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}

function decodeSkill(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// The seed's error strings (§7.2): read failure, size limit, decode error.
function loadFailureMessage(path: string, error: unknown): string {
  if (SkillsetError.isInstance(error) && error.code === "too-large") return `Error: Skill file at ${path} exceeds maximum size (${MAX_SKILL_FILE_BYTES} bytes)`;
  if (error instanceof TypeError && /encoded data|decode/i.test(error.message)) return `Error: Failed to decode skill file: ${error.message}`;
  const reason = error instanceof Error ? error.message : String(error);
  return `Error: Failed to read skill file at ${path}: ${reason}`;
}

function isSkillSource(value: unknown): value is SkillSource {
  return typeof value === "object" && value !== null && (value as SkillSource).specificationVersion === "v1" && typeof (value as SkillSource).scan === "function";
}

function buildCatalog(entries: ReadonlyArray<string | SkillSource>, backend: () => SkillsBackend, recursive: boolean): Catalog {
  return createCatalog(entries.map((entry) => (typeof entry === "string" ? createBackendSource({ backend, path: entry, recursive }) : entry)));
}

async function buildCatalogShared(entries: ReadonlyArray<string | SkillSource>, backend: SkillsBackend | undefined, recursive: boolean): Promise<Catalog> {
  if (backend) return buildCatalog(entries, () => backend, recursive);
  const needsLocal = entries.some((entry) => typeof entry === "string");
  // Loaded only when string sources name local folders, so the adapter itself is not Node-only.
  const { createLocalSource } = needsLocal ? await import("../sources/local-source.js") : { createLocalSource: undefined };
  return createCatalog(entries.map((entry) => (typeof entry === "string" ? createLocalSource!({ path: entry, recursive }) : entry)));
}
