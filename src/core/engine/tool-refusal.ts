import type { SkillRequest } from "./skill-engine-types.js";
import { disclosedTools } from "../tools/included-tools.js";
import { allowedToolUnion, isToolAllowed, restrictedToolMessage } from "../tools/tool-policy.js";
import { loadedSkillsOf } from "./catalog-cache.js";
import type { EngineContext } from "./engine-context.js";

/**
 * Under `"restrict"`, the refusal for a tool the loaded skills do not allow, with a
 * `tool_restricted` event; else `undefined`. Synchronous: it runs before every tool call.
 */
export function toolRefusal(
  context: EngineContext,
  request: Pick<SkillRequest, "state" | "emit">,
  tool: string,
  alwaysAllowed: ReadonlySet<string>,
): string | undefined {
  if (context.policy !== "restrict") return undefined;
  const { state } = request;
  const loaded = loadedSkillsOf(state, context.catalogs.renderingOf(state));
  const union = allowedToolUnion(loaded);
  if (isToolAllowed(tool, union, alwaysAllowed) || disclosedTools(loaded).includes(tool)) return undefined;
  const message = restrictedToolMessage(tool, union!, state.loaded);
  context.emit(request, { level: "warn", event: "tool_restricted", message, tool });
  return message;
}
