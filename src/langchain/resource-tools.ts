import { tool, ToolMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import { DEFAULT_RESOURCE_LINES } from "../core/resources/read-resource.js";
import type { SkillEngine, SkillReply, SkillRequest } from "../core/engine/skill-engine.js";
import { READ_RESOURCE_DESCRIPTION, RUN_SCRIPT_DESCRIPTION } from "../core/tools/skill-tool-messages.js";
import type { SkillsStateView } from "./skills-state.js";

type RequestFor = (state: SkillsStateView, runtime: object) => SkillRequest;

/** `read_skill_resource`: a loaded skill's file, text paginated by lines, binary described. */
export function createReadResourceTool(engine: SkillEngine, requestFor: RequestFor) {
  return tool(
    async (
      {
        skill_name: skill,
        path,
        offset,
        limit,
      }: { skill_name: string; path: string; offset?: number | undefined; limit?: number | undefined },
      runtime: ToolRuntime,
    ) => {
      const reply = await engine.readResource(requestFor(runtime.state as SkillsStateView, runtime), {
        skill,
        path,
        ...(offset !== undefined ? { offset } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      return toolReply(reply, runtime.toolCallId, "read_skill_resource");
    },
    {
      name: "read_skill_resource",
      description: READ_RESOURCE_DESCRIPTION,
      schema: z.object({
        skill_name: z.string().describe("A loaded skill."),
        path: z.string().describe("Path relative to the skill's folder, e.g. references/guide.md."),
        offset: z.number().int().min(0).optional().describe("First line to read, 0-based. Default 0."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(2000)
          .optional()
          .describe(`Lines to read. Default ${DEFAULT_RESOURCE_LINES}.`),
      }),
    },
  );
}

/** `run_skill_script`: runs a command in a loaded skill's folder, if its allow-list permits it. */
export function createRunScriptTool(engine: SkillEngine, requestFor: RequestFor) {
  return tool(
    async ({ skill_name: skill, command }: { skill_name: string; command: string }, runtime: ToolRuntime) =>
      toolReply(
        await engine.runScript(requestFor(runtime.state as SkillsStateView, runtime), { skill, command }),
        runtime.toolCallId,
        "run_skill_script",
      ),
    {
      name: "run_skill_script",
      description: RUN_SCRIPT_DESCRIPTION,
      schema: z.object({
        skill_name: z.string().describe("A loaded skill."),
        command: z.string().describe("The command, e.g. `python3 scripts/profile_csv.py data.csv`."),
      }),
    },
  );
}

function toolReply(reply: SkillReply, toolCallId: string, name: string): string | ToolMessage {
  return reply.ok
    ? reply.text
    : new ToolMessage({ content: reply.text, tool_call_id: toolCallId, name, status: "error" });
}
