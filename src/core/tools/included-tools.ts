import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// Tools that come with a skill (`metadata.include_tools`): which ones the loaded skills disclose,
// and the model-facing text about them. Hosts supply the implementations and do the gating.

/** The `metadata` key naming the tools a skill brings: a space-separated string, as deepagents reads it. */
export const INCLUDE_TOOLS_KEY = "include_tools";

/** How validation warnings describe the value `metadata.include_tools` must have. */
export const INCLUDE_TOOLS_SHAPE = "a space-separated string of tool names (e.g. 'list_issues create_issue')";

/** The tools a skill names in `metadata.include_tools`, in the order written, each once. */
export function includedTools(skill: Pick<SkillMetadata, "metadata">): string[] {
  const value = skill.metadata[INCLUDE_TOOLS_KEY];
  return typeof value === "string" ? [...new Set(value.split(/\s+/).filter(Boolean))] : [];
}

/**
 * The tools the loaded skills disclose, in load order, then each skill's own order. A tool two
 * skills bring appears once, where it first appears, and stays while either is loaded. Hosts put
 * these after the agent's own tools, so a load or unload changes only the end of the tools list.
 */
export function disclosedTools(loaded: readonly Pick<SkillMetadata, "metadata">[]): string[] {
  return [...new Set(loaded.flatMap(includedTools))];
}

/**
 * What a load or invocation result adds about the skill's tools: which are offered from the next
 * step, and which this agent does not supply. `undefined` when the skill names no tools.
 */
export function skillToolsNote(tools: readonly string[], unavailable: readonly string[]): string | undefined {
  if (tools.length === 0) return undefined;
  const offered = tools.filter((name) => !unavailable.includes(name));
  const parts: string[] = [];
  if (offered.length > 0) parts.push(`Tools this skill brings, offered from your next step: ${offered.join(", ")}.`);
  if (unavailable.length > 0)
    parts.push(
      `Not available in this agent (nobody supplies them): ${unavailable.join(", ")}; do the task without them.`,
    );
  return parts.join(" ");
}

/**
 * The refusal for a call to a skill's tool while no loaded skill discloses it, worded as for a
 * tool the agent does not have: the model may call only the tools it was given in that step.
 */
export function undisclosedToolMessage(tool: string): string {
  return `Error: ${tool} is not a valid tool here. Call only the tools you were given in this step; a skill's tools are offered from the step after the skill is loaded.`;
}
