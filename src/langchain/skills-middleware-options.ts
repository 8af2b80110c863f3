import type * as NodeFs from "node:fs";
import type { ClientTool } from "@langchain/core/tools";
import { z } from "zod";
import { SkillsetError } from "../errors/skillset-error.js";
import { refuseUnknownOptions } from "../errors/known-options.js";
import { schemaOptionKeys } from "../core/schema-option-keys.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../core/catalog/prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET, MIN_CATALOG_BUDGET } from "../core/catalog/render-catalog.js";
import type { CodeModeOptions } from "../core/engine/skill-engine.js";
import type { SkillsLogger } from "../core/skill-events.js";
import type { SkillRanker } from "../core/search/skill-search.js";
import type { SkillSource } from "../core/skill-source.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../exec/command-allow-list.js";
import type { ScriptExecutor } from "../exec/script-executor.js";
import type { SkillsBackend } from "../sources/backend-source.js";
import type { ForkAgents } from "./skill-fork.js";
import type { SkillModels } from "./skill-model.js";
import type { SkillToolsOption } from "./skill-tools.js";

/** Tools that `"restrict"` never blocks, besides the skill tools and `alwaysAllowedTools`. */
export const ALWAYS_ALLOWED_TOOLS = [
  "read_file",
  "ls",
  "glob",
  "grep",
  "write_todos",
  "read_skill_resource",
  "run_skill_script",
] as const;

// `never` accepts every factory signature, e.g. deepagents' `(runtime: BackendRuntime) => MaybePromise<backend>`.
type BackendFactory = (runtime: never) => SkillsBackend | Promise<SkillsBackend>;

const executorSchema = z.custom<ScriptExecutor>(
  (value) => typeof value === "object" && value !== null && typeof (value as ScriptExecutor).run === "function",
  "a ScriptExecutor",
);

const optionsSchema = z.object({
  /**
   * Skill sources, lowest precedence first; strings are local folders or `npm:` sources (see
   * `createNpmSource`), or paths on `backend`.
   * Empty is allowed (the prompt then says there are no skills yet).
   */
  sources: z.array(z.union([z.string().min(1), z.custom<SkillSource>(isSkillSource, "a SkillSource")])).readonly(),
  /** A deepagents backend, or a factory `(runtime) => backend`, to read string sources through. */
  backend: z
    .custom<SkillsBackend | BackendFactory>((value) => typeof value === "object" || typeof value === "function")
    .optional(),
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
   * Add `read_skill_resource`, which reads a loaded skill's files. `"auto"`: added, and the prompt
   * names it, unless the agent has its own `read_file` over the same files (deepagents, with
   * `backend`): then that one is named and `read_skill_resource` is not offered to the model.
   * `false`: not added; the prompt names `read_file`.
   * @default "auto"
   */
  readResourceTool: z.union([z.boolean(), z.literal("auto")]).default("auto"),
  /**
   * Add `run_skill_script`, running commands through `executor` (e.g. `createLocalExecutor()` from
   * `skillset/node`) when the skill's `allowed-tools`, read as a command allow-list, permit them;
   * skills that declare none may run `defaultAllowedCommands` (their `scripts/` files).
   */
  runScripts: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /**
   * A user's message that starts with `/<skill-name>` (a skill the user may invoke) invokes that
   * skill: the model gets its rendered instructions in place of the command, and it counts as loaded.
   * @default true
   */
  userInvocation: z.boolean().default(true),
  /**
   * Run the `` !`command` `` and ```` ```! ```` blocks of a skill's instructions through
   * `executor` when the skill is loaded or invoked, under the script rules (the skill's
   * `allowed-tools` as allow-list, else `defaultAllowedCommands`). Off by default: the model
   * then reads that the command was not run.
   */
  dynamicContext: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /** The tool the model reads resources with, named in the prompt. @default as `readResourceTool` decides */
  resourceReadTool: z.string().optional(),
  /** The tool the model runs scripts with, named in the prompt (e.g. deepagents' `execute`). @default "run_skill_script" with `runScripts` */
  scriptRunTool: z.string().optional(),
  /**
   * Most tokens (o200k_base) the skills catalog may take in the system prompt. Over it, lines are
   * shortened, then skills named only, then only counted, and `search_skills` finds them; every
   * skill stays loadable. `false`: no limit.
   * @default 5000
   */
  catalogBudget: z.union([z.number().int().min(MIN_CATALOG_BUDGET), z.literal(false)]).default(DEFAULT_CATALOG_BUDGET),
  /** Skills that keep their catalog lines first when the catalog is over its budget, most important first. */
  catalogPriority: z.array(z.string()).optional(),
  /**
   * Offer `search_skills({ query, limit? })`: `"auto"` while the catalog is over its budget,
   * `true` always, `false` never.
   * @default "auto"
   */
  searchSkills: z.union([z.literal("auto"), z.boolean()]).default("auto"),
  /**
   * Rankers for `search_skills`, fused by reciprocal rank; default the lexical one. E.g.
   * `[createLexicalRanker(), createEmbeddingRanker(embeddings)]` (from `skillset`).
   */
  searchRankers: z
    .array(z.custom<SkillRanker>((value) => typeof value === "function", "a SkillRanker function"))
    .min(1)
    .optional(),
  /**
   * `"tools"`: the skill tools. `"text"`: for a model bound without tools, the `<use_skill>` text
   * protocol of `createSkillRunner`: no skill tools; the catalog and the instructions in the
   * prompt; after each model call, the reply's instructions run and their results come back as a
   * user message, up to 10 model calls per invocation.
   * @default "tools"
   */
  protocol: z.enum(["tools", "text"]).default("tools"),
  /**
   * Tools that come with skills: a skill names them in `metadata.include_tools` (space-separated)
   * and they are offered only while it is loaded, after the agent's own tools. An array of tools
   * (not also passed as the agent's `tools`), or a resolver `(skillName, runtime) => tools`
   * called at most once per skill and thread. Needs `protocol: "tools"`.
   */
  skillTools: z
    .union([
      z.array(z.custom<ClientTool>(isTool, "a LangChain tool")),
      z.custom<SkillToolsOption>((value) => typeof value === "function"),
    ])
    .optional(),
  /**
   * Chat models that skills name in `model:`, by name (a record, or a function returning one or
   * `undefined`). While a loaded skill names one, model calls run on it (the most recently loaded
   * such skill decides); an unknown name keeps the agent's model, with a `skill_model_unknown`
   * event. Tools protocol only.
   */
  models: z
    .custom<SkillModels>(
      (value) => typeof value === "function" || (typeof value === "object" && value !== null),
      "a record of chat models, or a function from a name to one",
    )
    .optional(),
  /**
   * Run the `hooks:` of loaded skills (Claude Code's shape; `PreToolUse`, `PostToolUse`, `Stop`)
   * through `executor`, under the script rules (the skill's `allowed-tools` as allow-list, else
   * `defaultAllowedCommands`). Off without it: hooks are then ignored. Tools protocol only.
   */
  hooks: z
    .object({
      executor: executorSchema,
      defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .optional(),
  /**
   * What a subagent that one of the agent's tool calls starts (deepagents' `task`) begins with:
   * `"isolated"`, no skills loaded; `"inherit"`, the skills loaded here, with their instructions
   * and resources, when it runs this middleware too. Its own loads and unloads never come back.
   * @default "isolated"
   */
  subagentSkills: z.enum(["isolated", "inherit"]).default("isolated"),
  /**
   * Agent types for skills with `context: fork`, by the name in their `agent:` (a record, or a
   * list of named ones such as deepagents' `subagents`). Such a skill runs in a fresh agent
   * instead of the conversation: its rendered instructions are the task, it is loaded there, and
   * only the fork's final answer comes back (as the `load_skill` result, or as the answer to a
   * user's `/name`); it takes no slot here. `"general-purpose"` (the default agent type) is this
   * agent's model and its own tools, limited to the skill's `allowed-tools` when it declares
   * them. `false`: such skills load like any other. Tools protocol only.
   */
  forkAgents: z
    .union([
      z.literal(false),
      z.custom<ForkAgents>((value) => typeof value === "object" && value !== null, "a record or list of agent types"),
    ])
    .optional(),
  /**
   * Bounds of forked skills: the most model calls one fork makes, and how deep forks nest (1: a
   * fork cannot start another).
   * @default { maxSteps: 20, maxDepth: 1 }
   */
  forkLimits: z
    .object({ maxSteps: z.number().int().positive().default(20), maxDepth: z.number().int().positive().default(1) })
    .prefault({}),
  /**
   * Check each skill against the `skills-lock.json` the `skills` CLI wrote, when it is loaded or
   * invoked: a path (refusing skills that differ or are not listed), or `{ path, mode }` with
   * `mode: "warn"` to load them anyway. Either way a `skill_unverified` event names the skill and
   * why. Local folders only: a skill on a backend cannot be hashed, so it counts as not matching.
   */
  lockfile: z
    .union([
      z.string().min(1),
      z.object({ path: z.string().min(1), mode: z.enum(["refuse", "warn"]).default("refuse") }),
    ])
    .optional(),
  /**
   * Code mode: `run_code` runs the model's JavaScript in a sandbox per thread, importing loaded skills' modules
   * and calling the agent's tools listed in `tools` (`tools.<camelCaseName>(args)`). `true`: no tool callable.
   * @default false
   */
  codeMode: z
    .union([
      z.boolean(),
      z.custom<CodeModeOptions>((value) => typeof value === "object" && value !== null, "code mode options"),
    ])
    .default(false),
  /** Receives structured log entries; nothing is logged without it. */
  logger: z.custom<SkillsLogger>((value) => typeof value === "function").optional(),
});

/** The keys of {@link SkillsMiddlewareOptions}, read from the schema that gives their type. */
export const SKILLS_MIDDLEWARE_OPTIONS = schemaOptionKeys(optionsSchema);

/** Options of `createSkillsMiddleware`. */
export type SkillsMiddlewareOptions = z.input<typeof optionsSchema>;

/** The options as {@link parseSkillsMiddlewareOptions} returns them: checked, defaults filled in. */
export type ParsedSkillsMiddlewareOptions = z.output<typeof optionsSchema>;

/**
 * Checks `createSkillsMiddleware`'s options up front, so a wrong one fails when the agent is
 * built rather than on its first call, and fills in the defaults.
 *
 * @throws SkillsetError `unknown-option` for a key it does not know; `invalid-options`, naming each wrong option, or an option that needs
 * `protocol: "tools"` under the text protocol.
 */
export function parseSkillsMiddlewareOptions(options: SkillsMiddlewareOptions): ParsedSkillsMiddlewareOptions {
  refuseUnknownOptions("createSkillsMiddleware", options, SKILLS_MIDDLEWARE_OPTIONS);
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new SkillsetError("invalid-options", `createSkillsMiddleware: ${z.prettifyError(parsed.error)}`);
  }
  const settings = parsed.data;
  if (settings.protocol === "text" && settings.skillTools)
    throw new SkillsetError(
      "invalid-options",
      'createSkillsMiddleware: skillTools needs protocol: "tools"; the text protocol offers no tools',
    );
  if (settings.protocol === "text" && settings.codeMode !== false)
    throw new SkillsetError("invalid-options", 'createSkillsMiddleware: codeMode needs protocol: "tools"');
  if (settings.protocol === "text" && settings.hooks)
    throw new SkillsetError("invalid-options", 'createSkillsMiddleware: hooks needs protocol: "tools"');
  if (!settings.backend) refuseMissingAbsoluteSources(settings.sources);
  return settings;
}

/**
 * Without a backend, string sources are local folders. An absolute one that does not exist here
 * is almost always a deepagents path (`/skills/`) whose backend was left out: reading it as a
 * local folder would give an agent with no skills and only a log line to say why.
 */
function refuseMissingAbsoluteSources(sources: ParsedSkillsMiddlewareOptions["sources"]): void {
  // Checked where a synchronous file system exists (Node >= 20.16); the adapter itself is not Node-only.
  const fs = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    "node:fs",
  ) as Pick<typeof NodeFs, "existsSync"> | undefined;
  if (!fs) return;
  for (const source of sources) {
    if (typeof source !== "string" || !/^(\/|[A-Za-z]:[\\/])/.test(source) || fs.existsSync(source)) continue;
    throw new SkillsetError(
      "invalid-options",
      `createSkillsMiddleware: the source '${source}' does not exist on this machine and no backend is given. ` +
        "If it is a path on a deepagents backend (StateBackend, StoreBackend, …), pass that backend: createSkillsMiddleware({ sources, backend }), " +
        "or switch with createDeepAgent(withSkillset(params)). If it is a local folder, create it first.",
    );
  }
}

function isTool(value: unknown): value is ClientTool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ClientTool).name === "string" &&
    typeof (value as ClientTool).invoke === "function"
  );
}

function isSkillSource(value: unknown): value is SkillSource {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as SkillSource).specificationVersion === "v1" &&
    typeof (value as SkillSource).scan === "function"
  );
}
