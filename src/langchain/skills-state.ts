import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { applyToLoaded, applyToResources, type SkillOperationUpdate } from "../core/skill-operations.js";
import type { SkillMetadata } from "../core/skill-metadata.js";
import type { SkillResource } from "../core/skill-resources.js";

// deepagents' `skillsMetadata` element (name, description, path, license, compatibility,
// metadata, allowedTools) plus skillset's extra fields, kept as they are.
const skillMetadataEntry = z.custom<SkillMetadata>((value) => {
  const entry = value as Partial<Record<keyof SkillMetadata, unknown>> | null;
  return typeof entry === "object" && entry !== null && typeof entry.name === "string" && typeof entry.description === "string" && typeof entry.path === "string";
}, "a skill metadata entry with name, description and path");

const resourceEntry = z.object({
  path: z.string(),
  relativePath: z.string(),
  type: z.enum(["script", "reference", "asset", "other"]),
  size: z.number().optional(),
});

// Updates are skill operations; anything else is accepted and ignored (see SkillOperation).
const operationUpdate = z.custom<SkillOperationUpdate>(() => true).optional();

/**
 * The middleware's graph state. `skillsMetadata` is the catalog in deepagents' shape (so its
 * subagent handling, which leaves the key out, keeps working); `skillsLoaded` and
 * `skillResources` change only through skill operations, so parallel tool calls in one step
 * merge instead of conflicting, and loads do not flow between an agent and its subagents.
 */
export const skillsStateSchema = new StateSchema({
  skillsMetadata: z.array(skillMetadataEntry).nullish(),
  skillsLoaded: new ReducedValue(z.array(z.string()).default(() => []), {
    inputSchema: operationUpdate,
    reducer: (current: string[], update: SkillOperationUpdate) => applyToLoaded(current, update),
  }),
  skillResources: new ReducedValue(z.record(z.string(), z.array(resourceEntry)).default(() => ({})), {
    inputSchema: operationUpdate,
    reducer: (current: Record<string, SkillResource[]>, update: SkillOperationUpdate) => applyToResources(current, update),
  }),
  /** Content hash of `skillsMetadata`: the catalog is rewritten only when it changes. */
  _skillsCatalogVersion: z.string().optional(),
});

/** The state fields the middleware reads. */
export interface SkillsStateView {
  skillsMetadata?: SkillMetadata[] | null;
  skillsLoaded?: string[];
  skillResources?: Record<string, SkillResource[]>;
  _skillsCatalogVersion?: string;
  messages?: unknown[];
}
