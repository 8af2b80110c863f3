import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { applyToLoaded, applyToResources, type SkillOperationUpdate } from "../core/loaded/skill-operations.js";
import type { SkillResource } from "../core/resources/skill-resources.js";

const resourceEntry = z.object({
  path: z.string(),
  relativePath: z.string(),
  type: z.enum(["script", "reference", "asset", "other"]),
  size: z.number().optional(),
});

const pinnedSkill = z.union([z.string(), z.object({ name: z.string(), arguments: z.string().optional() })]);

/** A skill the application pins: its name, or its name and the arguments a user would type after `/name`. */
export type PinnedSkill = z.infer<typeof pinnedSkill>;

// Updates are skill operations; anything else is accepted and ignored (see SkillOperation).
const operationUpdate = z.custom<SkillOperationUpdate>(() => true).optional();

/**
 * The middleware's graph state. The catalog is not in it: it stays in the process, shared by
 * threads and found again by `_skillsCatalogVersion`, so a turn that changes no skills writes
 * no skills state however large the library. `skillsLoaded` and `skillResources` change only
 * through skill operations, so parallel tool calls in one step merge instead of conflicting,
 * and loads do not flow between an agent and its subagents.
 */
export const skillsStateSchema = new StateSchema({
  skillsLoaded: new ReducedValue(
    z.array(z.string()).default(() => []),
    {
      inputSchema: operationUpdate,
      reducer: (current: string[], update: SkillOperationUpdate) => applyToLoaded(current, update),
    },
  ),
  skillResources: new ReducedValue(
    z.record(z.string(), z.array(resourceEntry)).default(() => ({})),
    {
      inputSchema: operationUpdate,
      reducer: (current: Record<string, SkillResource[]>, update: SkillOperationUpdate) =>
        applyToResources(current, update),
    },
  ),
  /**
   * Skills the application activates, as a user's `/name args` would: read before the next model
   * call (from `invoke`'s input, or a tool's `Command`), then cleared.
   */
  pinnedSkills: z.array(pinnedSkill).optional(),
  /** Content hash of the catalog the thread last saw: a changed library unloads skills that left it. */
  _skillsCatalogVersion: z.string().optional(),
  /** In a forked skill's agent, how deep the fork is (1 below the top agent); set when the fork starts. */
  skillsForkDepth: z.number().optional(),
  /** Keys of the skill hooks marked `once` that ran in this thread; updates add keys. */
  _skillHooksRan: new ReducedValue(
    z.array(z.string()).default(() => []),
    {
      inputSchema: z.array(z.string()).optional(),
      reducer: (current: string[], update: string[] | undefined) => addKeys(current, update),
    },
  ),
});

function addKeys(current: readonly string[], update: readonly string[] | undefined): string[] {
  const added = (update ?? []).filter((key) => !current.includes(key));
  return added.length === 0 ? [...current] : [...current, ...new Set(added)];
}

/** The state fields the middleware reads. */
export interface SkillsStateView {
  skillsLoaded?: string[];
  skillResources?: Record<string, SkillResource[]>;
  _skillsCatalogVersion?: string;
  pinnedSkills?: PinnedSkill[];
  skillsForkDepth?: number;
  _skillHooksRan?: string[];
  messages?: unknown[];
}
