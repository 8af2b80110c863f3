import { AIMessage, HumanMessage, type BaseMessage, type SystemMessage } from "langchain";
import type { SkillEngine, SkillRequest } from "../core/engine/skill-engine.js";
import { parseSkillInstructions } from "../core/text-protocol/parse-instructions.js";
import { runSkillInstructions } from "../core/text-protocol/run-instructions.js";
import {
  renderTextProtocolPrompt,
  type TextProtocolPrompt,
  type TextProtocolPromptOptions,
} from "../core/text-protocol/text-protocol-prompt.js";
import { appendToSystemMessage } from "./message-text.js";

/** Marks the user messages that carry a reply's results (`additional_kwargs`). */
export const RESULTS_MARKER = "skillset_results";

/** Model calls per invocation, as `createSkillRunner`'s `maxIterations`. */
const MAX_MODEL_CALLS = 10;
/** Instructions of one reply that run. */
const MAX_INSTRUCTIONS = 10;

/** What {@link createTextProtocolHooks} needs from the middleware. */
export interface TextProtocolHooksOptions {
  engine: SkillEngine;
  /** The middleware's state and runtime, as the engine sees a request. */
  requestFor(state: never, runtime: object): SkillRequest;
  /** Whether scripts run (`runScripts`), so the prompt offers `<execute_script>`. */
  scripts: boolean;
  maxDescriptionLength: number;
  /** The middleware's `catalogBudget`, for the `<available_skills>` catalog. @default 5000 */
  catalogBudget?: number | false;
  /** The middleware's `catalogPriority`. */
  catalogPriority?: readonly string[];
  /** The middleware's `searchSkills`: when `<search_skills>` is offered. @default "auto" */
  searchSkills?: "auto" | boolean;
}

/**
 * The skills middleware's `protocol: "text"`, for a model bound without tools: instead of the
 * skill tools, the system prompt gets the `<available_skills>` catalog and the instructions of
 * the text protocol; after each model call, the instructions in the reply run through the
 * engine (as `createSkillRunner` runs them), their results are added as a user message marked
 * with {@link RESULTS_MARKER}, and the agent goes back to the model, up to 10 model calls per
 * invocation. Loaded skills are the middleware's graph state, as with tools. A reply that also
 * calls tools goes to the tools; its text instructions do not run.
 */
export function createTextProtocolHooks(options: TextProtocolHooksOptions) {
  const { engine } = options;
  const requestFor = options.requestFor as (state: unknown, runtime: object) => SkillRequest;
  // A prompt per catalog version.
  const prompts = new Map<string, Promise<TextProtocolPrompt>>();
  const promptOptions: TextProtocolPromptOptions = {
    scripts: options.scripts,
    maxDescriptionLength: options.maxDescriptionLength,
    maxLoadedSkills: engine.maxLoaded,
    ...(options.catalogBudget !== undefined ? { catalogBudget: options.catalogBudget } : {}),
    ...(options.catalogPriority ? { catalogPriority: options.catalogPriority } : {}),
    ...(options.searchSkills !== undefined ? { searchSkills: options.searchSkills } : {}),
  };
  const promptFor = async (request: SkillRequest): Promise<TextProtocolPrompt> => {
    const { skills, version } = await engine.currentCatalog(request);
    let prompt = prompts.get(version);
    if (prompt === undefined) {
      const sourceOrder = (await request.sources()).map((source) => source.id);
      prompt = renderTextProtocolPrompt(skills, { ...promptOptions, sourceOrder });
      if (prompts.size >= 16) prompts.delete(prompts.keys().next().value!);
      prompts.set(version, prompt);
    }
    return prompt;
  };

  return {
    wrapModelCall: async <R extends { state: unknown; runtime: object; systemMessage: SystemMessage }>(
      request: R,
      handler: (request: R) => AIMessage | Promise<AIMessage>,
    ): Promise<AIMessage> => {
      const prompt = await promptFor(requestFor(request.state, request.runtime));
      return handler({ ...request, systemMessage: appendToSystemMessage(request.systemMessage, prompt.text) });
    },

    afterModel: {
      canJumpTo: ["model" as const],
      hook: async (state: { messages?: BaseMessage[] }, runtime: object) => {
        const messages = state.messages ?? [];
        const reply = messages[messages.length - 1];
        if (!AIMessage.isInstance(reply) || (reply.tool_calls?.length ?? 0) > 0) return undefined;
        const parsed = parseSkillInstructions(reply.text);
        const calls = resultRounds(messages) + 1;
        if (parsed.instructions.length === 0 || calls >= MAX_MODEL_CALLS) return undefined;
        const request = requestFor(state, runtime);
        // The prompt the reply answered, by the thread's catalog version: no second scan.
        const { offersSearch } = await (prompts.get(request.state.catalogVersion ?? "") ?? promptFor(request));
        const round = await runSkillInstructions(engine, request, parsed, {
          maxInstructions: MAX_INSTRUCTIONS,
          lastRound: calls === MAX_MODEL_CALLS - 1,
          id: reply.id ?? `round-${calls}`,
          search: offersSearch,
        });
        const results = new HumanMessage({ content: round.message, additional_kwargs: { [RESULTS_MARKER]: true } });
        const update = { messages: [results], jumpTo: "model" as const };
        return round.operations.length > 0
          ? { ...update, skillsLoaded: round.operations, skillResources: round.operations }
          : update;
      },
    },
  };
}

// Results messages since the user's last own message: the model calls this invocation made, less one.
function resultRounds(messages: readonly BaseMessage[]): number {
  let rounds = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (!HumanMessage.isInstance(message)) continue;
    if (message.additional_kwargs?.[RESULTS_MARKER] !== true) break;
    rounds++;
  }
  return rounds;
}
