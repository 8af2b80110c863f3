import { setOwn } from "../text/safe-text.js";
import type { SkillResource } from "../resources/skill-resources.js";

/**
 * A change to a thread's loaded skills. The loaded-skills state only changes through these, so
 * parallel tool calls of one step merge instead of overwriting each other. Plain values written
 * to it, such as the copy a middleware re-emits or the state a deepagents subagent hands back to
 * its parent, are ignored, so loads never leak between agents.
 */
export type SkillOperation =
  | { kind: "load"; skill: string; resources: SkillResource[]; resourcesTruncated?: boolean }
  | { kind: "unload"; skill: string }
  | { kind: "reset" };

/** What the loaded-skills fields accept as an update: operations; anything else is ignored. */
export type SkillOperationUpdate = SkillOperation | readonly SkillOperation[] | unknown;

/** Applies operations to the loaded skill names, in load order. */
export function applyToLoaded(current: readonly string[] | undefined, update: SkillOperationUpdate): string[] {
  let loaded = [...(current ?? [])];
  for (const operation of operationsIn(update)) {
    if (operation.kind === "reset") loaded = [];
    else if (operation.kind === "unload") loaded = loaded.filter((name) => name !== operation.skill);
    else if (!loaded.includes(operation.skill)) loaded.push(operation.skill);
  }
  return loaded;
}

/** Applies operations to the resources of loaded skills, by skill name. */
export function applyToResources(
  current: Readonly<Record<string, SkillResource[]>> | undefined,
  update: SkillOperationUpdate,
): Record<string, SkillResource[]> {
  let resources = { ...(current ?? {}) };
  for (const operation of operationsIn(update)) {
    if (operation.kind === "reset") resources = {};
    else if (operation.kind === "unload") delete resources[operation.skill];
    else setOwn(resources, operation.skill, operation.resources);
  }
  return resources;
}

function operationsIn(update: SkillOperationUpdate): SkillOperation[] {
  const list = Array.isArray(update) ? update : [update];
  return list.filter(isSkillOperation);
}

/** True for a well-formed {@link SkillOperation}. */
function isSkillOperation(value: unknown): value is SkillOperation {
  if (typeof value !== "object" || value === null) return false;
  const { kind, skill } = value as { kind?: unknown; skill?: unknown };
  if (kind === "reset") return true;
  if (typeof skill !== "string") return false;
  return kind === "unload" || (kind === "load" && Array.isArray((value as { resources?: unknown }).resources));
}
