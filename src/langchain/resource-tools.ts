import { tool, ToolMessage, type ToolRuntime } from "langchain";
import type { SkillEngine, SkillReply, SkillRequest } from "../core/engine/skill-engine.js";
import { READ_SKILL_RESOURCE, RUN_SKILL_SCRIPT } from "../core/tools/skill-tool-definitions.js";
import type { SkillsStateView } from "./skills-state.js";

type RequestFor = (state: SkillsStateView, runtime: object) => SkillRequest;

/** `read_skill_resource`: a loaded skill's file, text paginated by lines, binary described. */
export function createReadResourceTool(engine: SkillEngine, requestFor: RequestFor) {
  return tool(
    async (input, runtime: ToolRuntime) =>
      toolReply(
        await engine.readResource(
          requestFor(runtime.state as SkillsStateView, runtime),
          READ_SKILL_RESOURCE.engineInput(input),
        ),
        runtime.toolCallId,
        READ_SKILL_RESOURCE.name,
      ),
    {
      name: READ_SKILL_RESOURCE.name,
      description: READ_SKILL_RESOURCE.description,
      schema: READ_SKILL_RESOURCE.input,
    },
  );
}

/** `run_skill_script`: runs a command in a loaded skill's folder, if its allow-list permits it. */
export function createRunScriptTool(engine: SkillEngine, requestFor: RequestFor) {
  return tool(
    async (input, runtime: ToolRuntime) =>
      toolReply(
        await engine.runScript(
          requestFor(runtime.state as SkillsStateView, runtime),
          RUN_SKILL_SCRIPT.engineInput(input),
        ),
        runtime.toolCallId,
        RUN_SKILL_SCRIPT.name,
      ),
    { name: RUN_SKILL_SCRIPT.name, description: RUN_SKILL_SCRIPT.description, schema: RUN_SKILL_SCRIPT.input },
  );
}

// A refusal is an error ToolMessage, as LangChain's own middleware answer one.
function toolReply(reply: SkillReply, toolCallId: string, name: string): string | ToolMessage {
  return reply.ok
    ? reply.text
    : new ToolMessage({ content: reply.text, tool_call_id: toolCallId, name, status: "error" });
}
