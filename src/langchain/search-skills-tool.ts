import { tool, type ToolRuntime } from "langchain";
import { z } from "zod";
import { SEARCH_SKILLS_DESCRIPTION } from "../core/tools/skill-tool-messages.js";
import { errorMessage } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";
import { SEARCH_SKILLS_TOOL } from "./middleware-tool-names.js";
import type { SkillsStateView } from "./skills-state.js";

/** `search_skills`: finds skills the catalog in the prompt leaves out when it is over its budget. */
export function createSearchSkillsTool(context: MiddlewareContext) {
  return tool(
    async ({ query, limit }: { query: string; limit?: number | undefined }, runtime: ToolRuntime) => {
      const reply = await context.engine.search(context.requestFor(runtime.state as SkillsStateView, runtime), {
        query,
        ...(limit !== undefined ? { limit } : {}),
      });
      return reply.ok ? reply.text : errorMessage(reply.text, runtime.toolCallId, SEARCH_SKILLS_TOOL);
    },
    {
      name: SEARCH_SKILLS_TOOL,
      description: SEARCH_SKILLS_DESCRIPTION,
      schema: z.object({
        query: z.string().describe("What you need a skill for, in a few words (the task, the file type, the tool)."),
        limit: z.number().int().min(1).max(25).optional().describe("How many skills to return. Default 5."),
      }),
    },
  );
}
