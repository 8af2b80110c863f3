import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { codeToolName } from "../tools/code-tool-names.js";
import { disclosedTools, undisclosedToolMessage } from "../tools/included-tools.js";
import { codeToolRefusalMessage } from "../tools/skill-tool-messages.js";
import { RUN_CODE, SKILL_TOOL_DEFINITIONS } from "../tools/skill-tool-definitions.js";
import type { CodeTool, CodeToolContext } from "./code-mode-types.js";
import type { EngineContext } from "./engine-context.js";
import type { SkillRequest } from "./skill-engine-types.js";
import { toolRefusal } from "./tool-refusal.js";

// The skill tools change or read the thread's skills: their effects (loads, unloads) are state operations
// the host applies after a tool call, which a call from inside code could not return. run_code itself would
// nest runs in one thread's sandbox.
const SKILL_TOOLS: ReadonlySet<string> = new Set([...SKILL_TOOL_DEFINITIONS.map((tool) => tool.name), RUN_CODE.name]);

/**
 * The `tools` object of one run, by camelCase name: every tool the host handed over is there, and one the
 * code may not call rejects with why (a skill tool, not in the app's list, a skill's tool no loaded skill
 * discloses), so the model learns what to do instead. The `"restrict"` policy is asked at each call, as
 * for a direct call (same refusal, same `tool_restricted` event). Two tools whose names meet in camelCase:
 * the first keeps the name.
 */
export function codeToolsFor(
  context: EngineContext,
  request: Pick<SkillRequest, "state" | "emit">,
  loaded: readonly SkillMetadata[],
  tools: Readonly<Record<string, CodeTool>>,
  toolContext: CodeToolContext,
): Record<string, CodeTool> {
  const allowed = context.options.codeMode?.tools ?? [];
  const alwaysAllowed = toolContext.alwaysAllowed ?? new Set<string>();
  const disclosed = new Set(disclosedTools(loaded));
  const table: Record<string, CodeTool> = {};
  for (const [tool, call] of Object.entries(tools)) {
    const name = codeToolName(tool);
    if (Object.hasOwn(table, name)) continue;
    const refuse = (message: string): CodeTool => {
      return () => Promise.reject(new Error(message));
    };
    if (SKILL_TOOLS.has(tool)) table[name] = refuse(codeToolRefusalMessage(tool, name, "skill-tool"));
    else if (allowed !== "all" && !allowed.includes(tool))
      table[name] = refuse(codeToolRefusalMessage(tool, name, "not-allowed"));
    else if (toolContext.isSkillTool?.(tool) && !disclosed.has(tool))
      table[name] = refuse(codeToolRefusalMessage(tool, name, "not-disclosed", undisclosedToolMessage(tool)));
    else
      table[name] = async (args) => {
        const refusal = toolRefusal(context, request, tool, alwaysAllowed);
        if (refusal !== undefined) throw new Error(codeToolRefusalMessage(tool, name, "restricted", refusal));
        return call(args);
      };
  }
  return table;
}
