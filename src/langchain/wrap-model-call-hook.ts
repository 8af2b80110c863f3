import type { ClientTool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import type { BaseMessage, WrapModelCallHook } from "langchain";
import { SkillsetError } from "../core/errors.js";
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
  return async (request, handler) => {
    const skills = context.requestFor(request.state as SkillsStateView, request.runtime);
    // What a fork started from this call gets of this agent: its own model and tools.
    const parent: ForkParent | undefined = context.runFork ? { model: request.model, tools: request.tools } : undefined;
    // Checked before any await: this runs on every model call, and a fork is rarely pending.
    const forks =
      parent && request.messages.at(-1)?.type === "human"
        ? await answerUserForks(request.messages as BaseMessage[], (fork) =>
            runForkedSkill(context, { fork, task: fork.task, operations: fork.operations, state: request.state as SkillsStateView, request: skills, runtime: request.runtime, parent }),
          )
        : undefined;
    // Only forks asked: their answers are the answer. Else the model answers, knowing theirs.
    if (forks?.answer) return forks.answer;
    if (forks) request = { ...request, messages: forks.messages };
    const finish = (response: Awaited<ReturnType<typeof handler>>) => {
      context.forkParents.remember(response, parent);
      return forks ? new Command({ update: { messages: forks.answered } }) : response;
    };
    const section = await engine.systemPrompt(skills, () => messageTexts(messagesAfterSummarization(request.messages)));
    const systemMessage = appendToSystemMessage(request.systemMessage, section);
    const skillModel = context.selectModel?.(await engine.loadedSkills(skills), skills.emit);
    if (skillModel) request = { ...request, model: skillModel };
    // "auto": search_skills is offered only while the catalog leaves skills out of sight.
    const hideSearch = options.searchSkills === "auto" && !(await engine.offersSearch(skills));
    if (!hideSearch && !skillTools) return finish(await handler({ ...request, systemMessage }));
    let offered = hideSearch ? request.tools.filter((entry) => entry.name !== SEARCH_SKILLS_TOOL) : request.tools;
    if (skillTools) {
      // The agent's own tools first, then the disclosed skill tools in load order.
      const clash = offered.find((entry) => skillTools.isSkillTool(toolName(entry)) && !skillTools.registered.includes(entry as ClientTool));
      if (clash) throw new SkillsetError("invalid-options", `createSkillsMiddleware: skillTools: '${toolName(clash)}' is also one of the agent's own tools; rename one of them`);
      offered = offered.filter((entry) => !skillTools.isSkillTool(toolName(entry)));
      skillTools.noteAgentTools(offered.map(toolName));
      offered = [...offered, ...(await disclosedSkillTools(context, skills, request.runtime))];
    }
    return finish(await handler({ ...request, systemMessage, tools: offered }));
  };
}
