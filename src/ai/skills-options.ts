import type { Tool } from "ai";
import { z } from "zod";
import { SkillsetError } from "../errors/skillset-error.js";
import { refuseUnknownOptions } from "../errors/known-options.js";
import { schemaOptionKeys } from "../core/schema-option-keys.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../core/catalog/prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET } from "../core/catalog/render-catalog.js";
import type { CodeLimits } from "../exec/code-sandbox/code-limits.js";
import type { CodeSandboxPool } from "../exec/code-sandbox/code-sandbox-pool.js";
import type { SkillRanker } from "../core/search/skill-search.js";
import type { SkillsLogger } from "../core/skill-events.js";
import type { SkillSource } from "../core/skill-source.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../exec/command-allow-list.js";
import type { ScriptExecutor } from "../exec/script-executor.js";
import { RUN_CODE, SKILL_TOOL_DEFINITIONS } from "../core/tools/skill-tool-definitions.js";
import type { SkillStateStore } from "./skill-state-store.js";

const executor = z.custom<ScriptExecutor>(
  (value) => typeof (value as ScriptExecutor | null)?.run === "function",
  "a ScriptExecutor",
);
const commandRules = z.object({
  executor,
  defaultAllowedCommands: z.array(z.string()).default([...DEFAULT_ALLOWED_COMMANDS]),
});
const source = z.custom<SkillSource>(
  (value) =>
    (value as SkillSource | null)?.specificationVersion === "v1" && typeof (value as SkillSource).scan === "function",
  "a SkillSource",
);

const optionsSchema = z.object({
  /** Skill sources, lowest precedence first: strings are local folders or `npm:` sources (Node), or `SkillSource` objects. */
  sources: z.array(z.union([z.string().min(1), source])).min(1),
  /** Find skills at any depth below each folder. @default false */
  recursive: z.boolean().default(false),
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills: z.number().int().positive().default(10),
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength: z.number().int().positive().default(DEFAULT_MAX_DESCRIPTION_LENGTH),
  /** Replaces `CATALOG_GUIDANCE` (from `skillset`), the text before the skills list; `{load}` and `{unload}` become the tool names. */
  guidance: z.string().optional(),
  /** Add `read_skill_resource`, so the model can read a loaded skill's files. @default true */
  readResourceTool: z.boolean().default(true),
  /**
   * Add `run_skill_script`, running commands through `executor` (e.g. `createLocalExecutor()` from
   * `skillset/node`) when the skill's `allowed-tools`, read as a command allow-list, permit them;
   * skills that declare none may run `defaultAllowedCommands` (their `scripts/` files).
   */
  runScripts: commandRules.optional(),
  /**
   * Run the `` !`command` `` and ```` ```! ```` blocks of a skill's instructions through
   * `executor` when the skill is loaded or invoked, under the script rules. Off by default: the
   * model then reads that the command was not run.
   */
  dynamicContext: commandRules.optional(),
  /** The tool the prompt tells the model to read resources with. @default "read_skill_resource" with `readResourceTool`, else "read_file" */
  resourceReadTool: z.string().optional(),
  /** The tool the prompt tells the model to run scripts with. @default "run_skill_script" with `runScripts` */
  scriptRunTool: z.string().optional(),
  /**
   * Most tokens (o200k_base) the skills catalog may take in the system prompt. Over it, lines are
   * shortened, then skills named only, then only counted, and `search_skills` finds them; every
   * skill stays loadable. `false`: no limit. At least 500, so the guidance fits.
   * @default 5000
   */
  catalogBudget: z.union([z.number().int().min(500), z.literal(false)]).default(DEFAULT_CATALOG_BUDGET),
  /** Skills that keep their catalog lines first when the catalog is over its budget, most important first. */
  catalogPriority: z.array(z.string()).optional(),
  /**
   * Add `search_skills({ query, limit? })`: `"auto"` offers it while the catalog is over its budget
   * (through `activeTools`, when `prepareStep` is given the call's `tools`), `true` always, `false` never.
   * @default "auto"
   */
  searchSkills: z.union([z.literal("auto"), z.boolean()]).default("auto"),
  /** Rankers for `search_skills`, fused by reciprocal rank; default the lexical one (see `createEmbeddingRanker` in `skillset`). */
  searchRankers: z
    .array(z.custom<SkillRanker>((value) => typeof value === "function", "a SkillRanker function"))
    .min(1)
    .optional(),
  /**
   * Tools that skills bring, by name: a skill names them in `metadata.include_tools` (a
   * space-separated string, as deepagents reads it). They are in `skills.tools`, but `prepareStep`
   * (given the call's `tools`) leaves them out of `activeTools` until a loaded skill names them,
   * and a call before that is refused. A name that is also one of skillset's tools is an error.
   */
  skillTools: z
    .record(
      z.string(),
      z.custom<Tool>((value) => typeof value === "object" && value !== null, "an AI SDK tool"),
    )
    .default({}),
  /**
   * Keep each thread's loaded skills here, by thread id (`skills.thread(id)`), instead of deriving
   * them from the messages. @default none: the messages are the state
   */
  store: z
    .custom<SkillStateStore>(
      (value) =>
        typeof (value as SkillStateStore | null)?.get === "function" &&
        typeof (value as SkillStateStore).set === "function",
      "a store with get and set",
    )
    .optional(),
  /**
   * Check each skill against the `skills-lock.json` the `skills` CLI wrote, when it is loaded or
   * invoked (Node only): a path (refusing skills that differ or are not listed), or `{ path, mode }`
   * with `mode: "warn"` to load them anyway. Either way a `skill_unverified` event names the skill
   * and why. A missing or malformed lockfile fails here, naming the file and the problem.
   */
  lockfile: z
    .union([
      z.string().min(1),
      z.object({ path: z.string().min(1), mode: z.enum(["refuse", "warn"]).default("refuse") }),
    ])
    .optional(),
  /**
   * Code mode: adds `run_code`, which runs the model's JavaScript in a WebAssembly sandbox per thread
   * (`skills.thread(id)`; without one, a sandbox per run), where it may import loaded skills' modules
   * (`@/skills/<name>`) and call `tools` (yours, by name, as `tools.<camelCaseName>(input)`) and the tools
   * loaded skills bring. The prompt lists the loaded skills' modules and their exports. `true`: on, with
   * no tool callable from code. `limits` and `keepValues` as `createCodeSandboxPool` takes them.
   * @default false
   */
  codeMode: z
    .union([
      z.boolean(),
      z.object({
        tools: z
          .record(
            z.string(),
            z.custom<Tool>((value) => typeof value === "object" && value !== null, "an AI SDK tool"),
          )
          .default({}),
        limits: z.custom<Partial<CodeLimits>>((value) => typeof value === "object" && value !== null).optional(),
        keepValues: z.boolean().optional(),
        pool: z
          .custom<CodeSandboxPool>((value) => typeof (value as CodeSandboxPool | null)?.run === "function")
          .optional(),
      }),
    ])
    .default(false),
  /** Receives structured log entries; nothing is logged without it. */
  logger: z.custom<SkillsLogger>((value) => typeof value === "function").optional(),
});

const OWN_TOOLS: readonly string[] = [...SKILL_TOOL_DEFINITIONS.map((definition) => definition.name), RUN_CODE.name];

// The keys of the options, read from the schema that gives their type.
const SKILLS_OPTIONS = schemaOptionKeys(optionsSchema);

/** Options of `createSkills` (from `skillset/ai`). */
export type SkillsOptions = z.input<typeof optionsSchema>;

/** {@link SkillsOptions} with their defaults applied. */
export type SkillsSettings = z.output<typeof optionsSchema>;

/** Validates `createSkills`'s options up front; a bad option is an error naming it. */
export function parseSkillsOptions(options: SkillsOptions): SkillsSettings {
  refuseUnknownOptions("createSkills", options, SKILLS_OPTIONS);
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new SkillsetError("invalid-options", `createSkills: ${z.prettifyError(parsed.error)}`);
  const clashes = Object.keys(parsed.data.skillTools).filter((name) => OWN_TOOLS.includes(name));
  if (clashes.length > 0)
    throw new SkillsetError(
      "invalid-options",
      `createSkills: skillTools may not replace skillset's own tools: ${clashes.join(", ")}`,
    );
  return parsed.data;
}
