import { tool, ToolMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import type { Catalog } from "../core/catalog.js";
import { SkillsetError } from "../core/errors.js";
import { DEFAULT_RESOURCE_LINES, MAX_RESOURCE_BYTES, renderResourcePage } from "../core/read-resource.js";
import { checkResourcePath } from "../core/resource-path.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-metadata.js";
import type { SkillSource } from "../core/skill-source.js";
import { isCommandAllowed } from "../exec/command-allow-list.js";
import { parseCommand } from "../exec/parse-command.js";
import { formatScriptResult, type ScriptExecutor } from "../exec/script-executor.js";
import { emitSkillsEvent, type SkillsLogger } from "./skills-logger.js";
import type { SkillsStateView } from "./skills-state.js";

/** What the resource tools need from the middleware. */
export interface ResourceToolContext {
  catalogFor(runtime: unknown): Promise<Catalog>;
  logger: SkillsLogger | undefined;
}

type Writer = ((chunk: unknown) => void) | undefined;

/** `read_skill_resource`: a loaded skill's file, text paginated by lines, binary described. */
export function createReadResourceTool(context: ResourceToolContext) {
  return tool(
    async ({ skill_name: name, path, offset, limit }: { skill_name: string; path: string; offset?: number | undefined; limit?: number | undefined }, runtime: ToolRuntime) => {
      const found = await loadedSkill(name, runtime, context);
      if ("error" in found) return refuse(found.error, runtime.toolCallId, "read_skill_resource");
      const checked = checkResourcePath(path);
      if (!checked.ok) return refuse(`Error: Cannot read '${path}': ${checked.reason}.`, runtime.toolCallId, "read_skill_resource");
      if (!found.source.readFile) return refuse(`Error: The source of skill '${name}' cannot read resources.`, runtime.toolCallId, "read_skill_resource");
      try {
        const bytes = await found.source.readFile(found.skill, checked.path, MAX_RESOURCE_BYTES);
        return renderResourcePage(checked.path, bytes, offset ?? 0, limit ?? DEFAULT_RESOURCE_LINES);
      } catch (error) {
        const message = SkillsetError.isInstance(error) ? error.message : String(error);
        return refuse(`Error: Cannot read '${checked.path}' in skill '${name}': ${message}.`, runtime.toolCallId, "read_skill_resource");
      }
    },
    {
      name: "read_skill_resource",
      description: "Read a file of a loaded skill (a script, reference or asset), by its path relative to the skill's folder. Text comes in pages of lines; use offset for the next page.",
      schema: z.object({
        skill_name: z.string().describe("A loaded skill."),
        path: z.string().describe("Path relative to the skill's folder, e.g. references/guide.md."),
        offset: z.number().int().min(0).optional().describe("First line to read, 0-based. Default 0."),
        limit: z.number().int().min(1).max(2000).optional().describe(`Lines to read. Default ${DEFAULT_RESOURCE_LINES}.`),
      }),
    },
  );
}

/** `run_skill_script`: runs a command in a loaded skill's folder, if its allow-list permits it. */
export function createRunScriptTool(context: ResourceToolContext & { executor: ScriptExecutor; defaultAllowedCommands: readonly string[] }) {
  return tool(
    async ({ skill_name: name, command }: { skill_name: string; command: string }, runtime: ToolRuntime) => {
      const writer = runtime.writer as Writer;
      const found = await loadedSkill(name, runtime, context);
      if ("error" in found) return refuse(found.error, runtime.toolCallId, "run_skill_script");
      const refused = (reason: string) => {
        emitSkillsEvent(context.logger, writer, { level: "warn", event: "script_refused", message: `run_skill_script refused for skill '${name}': ${reason}`, skill: name, command });
        return refuse(`Error: Command refused: ${reason}.`, runtime.toolCallId, "run_skill_script");
      };
      const parsed = parseCommand(command);
      if (!parsed.ok) return refused(parsed.reason);
      const entries = found.skill.allowedTools.length > 0 ? found.skill.allowedTools : context.defaultAllowedCommands;
      if (!isCommandAllowed(parsed.argv, entries)) {
        return refused(`'${parsed.argv[0]}' is not allowed for skill '${name}' (allowed: ${entries.join(", ") || "nothing"})`);
      }
      const result = await context.executor.run({ argv: parsed.argv, cwd: skillDirectory(found.skill) });
      const failed = result.timedOut || result.killedReason !== undefined || result.exitCode !== 0;
      emitSkillsEvent(context.logger, writer, {
        level: failed ? "warn" : "info",
        event: "script_ran",
        message: `Skill '${name}' ran '${parsed.argv[0]}': exit ${result.exitCode ?? result.signal}${result.timedOut ? " (timed out)" : ""}`,
        skill: name,
        argv: parsed.argv,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: Math.round(result.durationMs),
      });
      const text = formatScriptResult(command, result);
      return failed ? refuse(text, runtime.toolCallId, "run_skill_script") : text;
    },
    {
      name: "run_skill_script",
      description:
        "Run one of a loaded skill's scripts (or a command its allowed-tools permit) in the skill's folder. One program with arguments, no shell: no pipes, redirections, ';', '&&' or '$'.",
      schema: z.object({
        skill_name: z.string().describe("A loaded skill."),
        command: z.string().describe("The command, e.g. `python3 scripts/profile_csv.py data.csv`."),
      }),
    },
  );
}

async function loadedSkill(name: string, runtime: ToolRuntime, context: ResourceToolContext): Promise<{ skill: SkillMetadata; source: SkillSource } | { error: string }> {
  const state = runtime.state as SkillsStateView;
  if (!(state.skillsLoaded ?? []).includes(name)) return { error: `Error: Skill '${name}' is not loaded. Load it with load_skill first.` };
  const skill = (state.skillsMetadata ?? []).find((entry) => entry.name === name);
  const catalog = await context.catalogFor({ ...runtime, state });
  const source = skill && catalog.sources.find((candidate) => candidate.id === skill.source);
  if (!skill || !source) return { error: `Error: Skill '${name}' is no longer available from its source.` };
  return { skill, source };
}

function refuse(content: string, toolCallId: string, name: string): ToolMessage {
  return new ToolMessage({ content, tool_call_id: toolCallId, name, status: "error" });
}
