import type { SkillFileTools } from "../core/engine/skill-engine.js";
import { READ_SKILL_RESOURCE } from "../core/tools/skill-tool-definitions.js";
import { namesFolder } from "../sources/string-source-kind.js";
import type { ParsedSkillsMiddlewareOptions } from "./skills-middleware-options.js";

type FileToolOptions = Pick<
  ParsedSkillsMiddlewareOptions,
  "protocol" | "backend" | "sources" | "readResourceTool" | "resourceReadTool" | "runScripts" | "scriptRunTool"
>;

/**
 * The file tools the prompt and load results name for an agent that has `agentTools`, so that
 * every tool they point to exists. The agent's own `read_file` and `write_file` (deepagents')
 * count only when the skills are read through `backend`, the files those tools see; otherwise a
 * skill's files are read with `read_skill_resource`. Names given in the options win. Scripts run
 * only with a tool the options name: deepagents offers `execute` only on sandboxes, which the
 * tools of a model call cannot tell. `undefined` under the text protocol, whose prompt names no tools.
 */
export function agentFileTools(options: FileToolOptions, agentTools: ReadonlySet<string>): SkillFileTools | undefined {
  if (options.protocol === "text") return undefined;
  const sharesFiles = (tool: string) => options.backend !== undefined && agentTools.has(tool);
  const read =
    options.resourceReadTool ??
    (options.readResourceTool === true
      ? READ_SKILL_RESOURCE.name
      : options.readResourceTool === false || sharesFiles("read_file")
        ? "read_file"
        : READ_SKILL_RESOURCE.name);
  const run = options.scriptRunTool ?? (options.runScripts ? "run_skill_script" : undefined);
  const folders = options.sources.filter(
    (source): source is string => typeof source === "string" && namesFolder(source),
  );
  return {
    read,
    ...(run ? { run } : {}),
    ...(sharesFiles("write_file") && folders.length > 0 ? { createSkillsIn: folders } : {}),
  };
}
