import { toolNameOf } from "../../exec/tool-name.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

export { toolNameOf };

/** How `allowed-tools` is used: `"recommend"` shows it to the model; `"restrict"` also refuses calls to other tools. */
export type AllowedToolsPolicy = "recommend" | "restrict";

/**
 * The tools allowed while `loaded` skills are active under `"restrict"`: the union of their
 * `allowed-tools`, or `undefined` when none of them declares any (then nothing is restricted).
 */
export function allowedToolUnion(loaded: readonly Pick<SkillMetadata, "allowedTools">[]): Set<string> | undefined {
  const declaring = loaded.filter((skill) => skill.allowedTools.length > 0);
  if (declaring.length === 0) return undefined;
  return new Set(declaring.flatMap((skill) => skill.allowedTools.map(toolNameOf)));
}

/** Whether a tool may run: always-allowed tools pass, others must be in the union (case-insensitively). */
export function isToolAllowed(
  tool: string,
  union: Set<string> | undefined,
  alwaysAllowed: ReadonlySet<string>,
): boolean {
  if (union === undefined || alwaysAllowed.has(tool) || union.has(tool)) return true;
  const lower = tool.toLowerCase();
  for (const name of union) if (name.toLowerCase() === lower) return true;
  return false;
}

/** The refusal a restricted tool call gets, naming the allowed set. */
export function restrictedToolMessage(tool: string, union: ReadonlySet<string>, loaded: readonly string[]): string {
  return (
    `Error: Tool '${tool}' is not allowed while the loaded skills (${loaded.join(", ")}) restrict tools. ` +
    `Allowed: ${[...union].sort().join(", ")}, and the skill and file-reading tools. Unload a skill with unload_skill to lift its restriction.`
  );
}
