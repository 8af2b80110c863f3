// The options of `createSkillRunner`, and their checks: every problem is named at once, up front,
// instead of failing in the middle of a turn.
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillEngineOptions } from "../engine/skill-engine-types.js";
import type { SkillsLogger } from "../skill-events.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../catalog/prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET, MIN_CATALOG_BUDGET } from "../catalog/render-catalog.js";
import type { SkillSource } from "../skill-source.js";
import { type ScriptExecutor, SCRIPT_RULES_OPTIONS } from "../../exec/script-executor.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";
import type { TextCompletion } from "./text-conversation.js";

/** Options of `createSkillRunner`. */
export interface SkillRunnerOptions {
  /** Where skills come from, lowest precedence first. */
  sources: readonly SkillSource[];
  /** The model. */
  complete: TextCompletion;
  /** Runs `<execute_script>`, e.g. `createLocalExecutor()` from `skillset/node`; without it, scripts are refused. */
  executor?: ScriptExecutor;
  /** Commands a skill that declares no `allowed-tools` may run. @default ["scripts/*"] */
  defaultAllowedCommands?: readonly string[];
  /** Model calls per turn, at least 1: when the last reply still asks for instructions, the turn stops and says so. @default 10 */
  maxIterations?: number;
  /** Instructions of one reply that run, in order; the results message says how many did not. @default 10 */
  maxInstructionsPerReply?: number;
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills?: number;
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength?: number;
  /**
   * Most tokens (o200k_base, at least 500) the `<available_skills>` catalog may take, as the
   * middleware's `catalogBudget`: over it, descriptions are shortened, then skills named only,
   * then counted, and `<search_skills>` finds them. `false`: no limit. @default 5000
   */
  catalogBudget?: number | false;
  /** Skills that keep their catalog entries first when the catalog is over its budget, most important first. */
  catalogPriority?: readonly string[];
  /** When `<search_skills>` is offered: `"auto"` while the catalog is over its budget, `true` always, `false` never. @default "auto" */
  searchSkills?: "auto" | boolean;
  /** Runs the `` !`command` `` blocks of a skill's instructions on load, under the script rules. Off unless given. */
  dynamicContext?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /** A user's message that starts with `/<skill-name>` invokes that skill, as in the middleware. @default true */
  userInvocation?: boolean;
  /** Checks each skill before it is loaded or invoked, as the engine's `verifySkill` (e.g. `lockfile` in `skillset/node`'s runner). */
  verifySkill?: SkillEngineOptions["verifySkill"];
  /** Receives structured log entries; nothing is logged without it. */
  logger?: SkillsLogger;
}

/** The options `createSkillRunner` uses directly, defaults filled in. */
export type SkillRunnerSettings = ReturnType<typeof validateSkillRunnerOptions>;

/** Fills in the defaults; throws `SkillsetError` (`invalid-options`) naming every invalid option. */
/** The keys of {@link SkillRunnerOptions}, for the runners that take them. */
export const SKILL_RUNNER_OPTIONS = {
  sources: true,
  complete: true,
  executor: true,
  defaultAllowedCommands: true,
  maxIterations: true,
  maxInstructionsPerReply: true,
  maxLoadedSkills: true,
  maxDescriptionLength: true,
  catalogBudget: true,
  catalogPriority: true,
  searchSkills: true,
  dynamicContext: SCRIPT_RULES_OPTIONS,
  userInvocation: true,
  verifySkill: true,
  logger: true,
} as const satisfies KnownOptions<SkillRunnerOptions>;

export function validateSkillRunnerOptions(options: SkillRunnerOptions) {
  refuseUnknownOptions("createSkillRunner", options, SKILL_RUNNER_OPTIONS);
  const problems: string[] = [];
  const isSource = (value: unknown) =>
    typeof value === "object" && value !== null && typeof (value as SkillSource).scan === "function";
  if (!Array.isArray(options.sources) || !options.sources.every(isSource))
    problems.push("sources must be an array of SkillSource objects");
  if (typeof options.complete !== "function")
    problems.push("complete must be a function (messages) => Promise<string>");
  const count = (name: keyof SkillRunnerOptions, fallback: number) => {
    const value = options[name] ?? fallback;
    if (!Number.isInteger(value) || (value as number) < 1)
      problems.push(`${name} must be an integer of at least 1, got ${String(value)}`);
    return value as number;
  };
  const settings = {
    complete: options.complete,
    maxIterations: count("maxIterations", 10),
    maxInstructionsPerReply: count("maxInstructionsPerReply", 10),
    maxLoadedSkills: count("maxLoadedSkills", 10),
    maxDescriptionLength: count("maxDescriptionLength", DEFAULT_MAX_DESCRIPTION_LENGTH),
    userInvocation: options.userInvocation ?? true,
    catalogBudget: options.catalogBudget ?? DEFAULT_CATALOG_BUDGET,
    searchSkills: options.searchSkills ?? "auto",
  };
  const budget = settings.catalogBudget;
  if (budget !== false && !(Number.isInteger(budget) && budget >= MIN_CATALOG_BUDGET))
    problems.push(`catalogBudget must be false or an integer of at least ${MIN_CATALOG_BUDGET}, got ${String(budget)}`);
  if (settings.searchSkills !== "auto" && typeof settings.searchSkills !== "boolean")
    problems.push(`searchSkills must be "auto", true or false, got ${String(settings.searchSkills)}`);
  const priority = options.catalogPriority;
  if (priority !== undefined && !(Array.isArray(priority) && priority.every((name) => typeof name === "string")))
    problems.push("catalogPriority must be an array of skill names");
  if (problems.length > 0) throw new SkillsetError("invalid-options", `createSkillRunner: ${problems.join("; ")}`);
  return settings;
}
