import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "langchain";
import type { TextCompletion, TextMessage } from "../core/text-protocol/skill-runner.js";

/** What {@link createChatModelComplete} needs of a model: any LangChain chat model or runnable has it. */
export interface ChatModelLike {
  invoke(messages: BaseMessage[], options?: { signal?: AbortSignal }): Promise<BaseMessage>;
}

/**
 * A `complete` for `createSkillRunner` (or `createLocalSkillRunner`) from any LangChain chat model (`ChatOpenAI`,
 * `ChatAnthropic`, `ChatOllama`, an OpenAI-compatible server…), used without tools: the
 * conversation goes in as system, human and AI messages, the reply's text comes out.
 *
 * @example
 * ```ts
 * const runner = createLocalSkillRunner({ sources: ["./skills"], complete: createChatModelComplete(new ChatOpenAI({ model: "gpt-4o-mini" })) });
 * ```
 */
export function createChatModelComplete(model: ChatModelLike): TextCompletion {
  return async (messages, options) => {
    // The runner passes on the caller's own AbortSignal; its type is only declared structurally.
    const reply = await model.invoke(
      messages.map(toChatMessage),
      options.signal ? { signal: options.signal as AbortSignal } : {},
    );
    return reply.text;
  };
}

function toChatMessage(message: TextMessage): BaseMessage {
  if (message.role === "system") return new SystemMessage(message.content);
  return message.role === "user" ? new HumanMessage(message.content) : new AIMessage(message.content);
}
