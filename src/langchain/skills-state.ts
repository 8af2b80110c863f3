import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { applyToLoaded, applyToResources, type SkillOperationUpdate } from "../core/skill-operations.js";
import type { SkillResource } from "../core/skill-resources.js";

const resourceEntry = z.object({
  path: z.string(),
  relativePath: z.string(),
  type: z.enum(["script", "reference", "asset", "other"]),
  size: z.number().optional(),
});

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
  skillsLoaded: new ReducedValue(z.array(z.string()).default(() => []), {
    inputSchema: operationUpdate,
    reducer: (current: string[], update: SkillOperationUpdate) => applyToLoaded(current, update),
  }),
  skillResources: new ReducedValue(z.record(z.string(), z.array(resourceEntry)).default(() => ({})), {
    inputSchema: operationUpdate,
    reducer: (current: Record<string, SkillResource[]>, update: SkillOperationUpdate) => applyToResources(current, update),
  }),
  /** Content hash of the catalog the thread last saw: a changed library unloads skills that left it. */
  _skillsCatalogVersion: z.string().optional(),
});

/** The state fields the middleware reads. */
export interface SkillsStateView {
  skillsLoaded?: string[];
  skillResources?: Record<string, SkillResource[]>;
  _skillsCatalogVersion?: string;
  messages?: unknown[];
}
