import type { ClientTool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { BaseMessage, WrapModelCallHook } from "langchain";
import { SkillsetError } from "../errors/skillset-error.js";
import type { SkillFileTools } from "../core/engine/skill-engine.js";
import { emitSkillsEvent } from "../core/skill-events.js";
import { READ_SKILL_RESOURCE } from "../core/tools/skill-tool-definitions.js";
import { agentFileTools } from "./agent-file-tools.js";
import { messagesAfterSummarization } from "./graph-context.js";
import { disclosedSkillTools } from "./loaded-skill-tools.js";
import { appendToSystemMessage, messageTexts } from "./message-text.js";
import type { MiddlewareContext, SkillsStateSchema } from "./middleware-context.js";
import { SEARCH_SKILLS_TOOL } from "./middleware-tool-names.js";
import { runForkedSkill } from "./run-forked-skill.js";
import { answerUserForks } from "./fork-requests.js";
import { toolName, type ForkParent } from "./skill-fork.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * The model call of the tools protocol: first the forks a user's `/name` asked for; then the
 * skills section after the system prompt, the stable catalog first and what loads and unloads
 * change after it, so provider prompt caches keep the longest prefix; the model a loaded skill
 * names; `search_skills` only while needed; the tools loaded skills bring.
 */
export function createWrapModelCallHook(context: MiddlewareContext): WrapModelCallHook<SkillsStateSchema> {
  const { engine, skillTools, options } = context;
  const checkFileTools = fileToolsCheck(context);
  const offersReader = context.toolNames.includes(READ_SKILL_RESOURCE.name);
  return async (request, handler) => {
    const fileTools = checkFileTools(request.tools.map(toolName));
    const skills = { ...context.requestFor(request.state as SkillsStateView, request.runtime), fileTools };
    // What a fork started from this call gets of this agent: its own model and tools.
    const parent: ForkParent | undefined = context.runFork ? { model: request.model, tools: request.tools } : undefined;
    // Checked before any await: this runs on every model call, and a fork is rarely pending.
    const forks =
      parent && request.messages.at(-1)?.type === "human"
        ? await answerUserForks(request.messages as BaseMessage[], (fork) =>
            runForkedSkill(context, {
              fork,
              task: fork.task,
              operations: fork.operations,
              state: request.state as SkillsStateView,
              request: skills,
              runtime: request.runtime,
              parent,
            }),
          )
        : undefined;
    // Only forks asked: their answers are the answer. Else the model answers, knowing theirs.
    if (forks?.answer) return forks.answer;
    if (forks) request = { ...request, messages: forks.messages };
    const finish = (response: Awaited<ReturnType<typeof handler>>, tools = request.tools) => {
      context.forkParents.remember(response, parent);
      if (options.codeMode !== false) context.codeCallTools.remember(response, tools);
      return forks ? new Command({ update: { messages: forks.answered } }) : response;
    };
    const section = await engine.systemPrompt(skills, () => messageTexts(messagesAfterSummarization(request.messages)));
    const systemMessage = appendToSystemMessage(request.systemMessage, section);
    const skillModel = context.selectModel?.(await engine.loadedSkills(skills), skills.emit);
    if (skillModel) request = { ...request, model: skillModel };
    // "auto": search_skills is offered only while the catalog leaves skills out of sight, and
    // read_skill_resource only when the prompt names it rather than the agent's own reader.
    const hidden = new Set<string>();
    if (options.searchSkills === "auto" && !(await engine.offersSearch(skills))) hidden.add(SEARCH_SKILLS_TOOL);
    if (fileTools.read !== READ_SKILL_RESOURCE.name && offersReader) hidden.add(READ_SKILL_RESOURCE.name);
    if (hidden.size === 0 && !skillTools) return finish(await handler({ ...request, systemMessage }));
    let offered = request.tools.filter((entry) => !hidden.has(toolName(entry)));
    if (skillTools) {
      // The agent's own tools first, then the disclosed skill tools in load order.
      const clash = offered.find(
        (entry) => skillTools.isSkillTool(toolName(entry)) && !skillTools.registered.includes(entry as ClientTool),
      );
      if (clash)
        throw new SkillsetError(
          "invalid-options",
          `createSkillsMiddleware: skillTools: '${toolName(clash)}' is also one of the agent's own tools; rename one of them`,
        );
      offered = offered.filter((entry) => !skillTools.isSkillTool(toolName(entry)));
      skillTools.noteAgentTools(offered.map(toolName));
      offered = [...offered, ...(await disclosedSkillTools(context, skills, request.runtime))];
    }
    return finish(await handler({ ...request, systemMessage, tools: offered }), offered);
  };
}

/**
 * The agent's file tools from the tools of a model call, remembered for the tool calls after it;
 * a tool the options name that the agent does not have is a warning, once.
 */
function fileToolsCheck(context: MiddlewareContext): (agentTools: readonly string[]) => SkillFileTools {
  let warned = false;
  return (agentTools) => {
    const fileTools = agentFileTools(context.options, new Set(agentTools))!;
    context.fileTools.current = fileTools;
    const missing = [fileTools.read, fileTools.run].find((tool) => tool !== undefined && !agentTools.includes(tool));
    if (!warned && missing) {
      warned = true;
      emitSkillsEvent(context.options.logger, undefined, {
        level: "warn",
        event: "resource_tool_missing",
        message: `The skills prompt tells the model to use '${missing}' for skill files, but this agent has no such tool; give the agent that tool, or leave readResourceTool at "auto"`,
        tool: missing,
      });
    }
    return fileTools;
  };
}
