import type { CatalogRefresh, SkillRequest } from "../core/engine/skill-engine.js";
import { stateForBackend } from "./graph-context.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { SkillsStateView } from "./skills-state.js";
import { namesFolder } from "../sources/string-source-kind.js";

// The agent's own file tools (deepagents, Claude Code's names) and the argument naming the file.
const WRITING_TOOLS = new Set(["write_file", "edit_file"]);

/**
 * The catalog version to record before a model call, when the thread's catalog fell behind
 * within the run: a `load_skill` found a skill the catalog lacked (it re-scanned), or the last
 * step's file tools wrote under a string source. `undefined` when nothing is to be done, which
 * is almost always and costs no scan. Skills that left the sources meanwhile are unloaded, as at
 * the start of a run.
 */
export async function catchUpCatalog(
  context: MiddlewareContext,
  state: SkillsStateView,
  request: SkillRequest,
  runtime: object,
): Promise<CatalogRefresh | undefined> {
  const loaded = request.state.loaded;
  const behind = loaded.length > 0 && (await context.engine.loadedSkills(request)).length < loaded.length;
  if (!behind && !wroteUnderSource(state.messages ?? [], context.options.sources)) return undefined;
  const catalog = await context.catalogFor({ ...runtime, state: stateForBackend(state) });
  return context.engine.refresh(catalog, request.state, request.emit);
}

/** Whether the AI message of the last step called a file tool on a path under one of the string sources. */
export function wroteUnderSource(messages: readonly unknown[], sources: readonly unknown[]): boolean {
  const folders = sources
    .filter((source): source is string => typeof source === "string" && namesFolder(source))
    .map(folderPrefix);
  if (folders.length === 0) return false;
  for (let index = messages.length - 1; index >= 0; index--) {
    const calls = (messages[index] as { tool_calls?: Array<{ name: string; args?: Record<string, unknown> }> })
      .tool_calls;
    if (!calls) continue;
    return calls.some((call) => {
      const path = call.args?.file_path ?? call.args?.path;
      return (
        WRITING_TOOLS.has(call.name) &&
        typeof path === "string" &&
        folders.some((folder) => folderPrefix(path).startsWith(folder))
      );
    });
  }
  return false;
}

// Compared as text: `./skills`, `skills/` and `skills` name one folder; backslashes as slashes.
function folderPrefix(path: string): string {
  const slashes = path.replaceAll("\\", "/").replace(/^\.\//, "");
  return slashes.endsWith("/") ? slashes : `${slashes}/`;
}
