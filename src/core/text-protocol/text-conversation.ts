// A text-protocol conversation: its messages, and what the runner reads back from them. The
// runner keeps nothing between turns, so the loaded skills are read from the conversation itself.
import { SkillsetError } from "../../errors/skillset-error.js";

/** One message of a text conversation, as chat APIs take them. */
export interface TextMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * A text model: the conversation in, the reply's text out. Any chat or completion API fits;
 * `createChatModelComplete` (`skillset/langchain`) makes one from a LangChain chat model.
 */
export type TextCompletion = (messages: TextMessage[], options: { signal?: RunSignal }) => Promise<string>;

/**
 * An `AbortSignal` as the runner uses it. Declared here so the core's types need neither the DOM
 * nor Node's; any `AbortSignal` fits.
 */
export interface RunSignal {
  readonly aborted: boolean;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

// `<skill_content name="…">` / `<skill_unloaded name="…">` opening a line of a user message:
// only the runner writes these (inside results, every protocol tag is neutralized).
const LOAD_RECORD = /^<(skill_content|skill_unloaded) name="([^"]*)">/gm;

/**
 * The skills loaded in a conversation, read from the results in its user messages, in load
 * order. A user's invocation evicts the least recently loaded skill when every slot is taken,
 * so only the last `maxLoaded` count.
 */
export function loadedSkillsIn(messages: readonly TextMessage[], maxLoaded: number): string[] {
  let loaded: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !message.content.includes("<skill_")) continue;
    for (const [, tag, name] of message.content.matchAll(LOAD_RECORD)) {
      const skill = unescapeAttribute(name!);
      loaded = loaded.filter((entry) => entry !== skill);
      if (tag === "skill_content") loaded.push(skill);
    }
  }
  return loaded.slice(-maxLoaded);
}

function unescapeAttribute(value: string): string {
  return value.replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: "<", gt: ">", quot: '"', amp: "&" })[name]!);
}

/**
 * A copy of `input` as a conversation (a question becomes one user message), checked: at least
 * one message, each a known role with text content, the last one the user's. Throws
 * `SkillsetError` (`invalid-input`) otherwise.
 */
export function conversationOf(input: string | readonly TextMessage[]): TextMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input) || input.length === 0)
    throw new SkillsetError(
      "invalid-input",
      "SkillRunner.run: give a question, or a conversation of at least one message",
    );
  input.forEach((message, index) => {
    const valid =
      typeof message === "object" &&
      message !== null &&
      ["system", "user", "assistant"].includes(message.role) &&
      typeof message.content === "string";
    if (!valid)
      throw new SkillsetError(
        "invalid-input",
        `SkillRunner.run: message ${index} must be { role: "system" | "user" | "assistant", content: string }`,
      );
  });
  if (input[input.length - 1]!.role !== "user")
    throw new SkillsetError("invalid-input", "SkillRunner.run: the conversation's last message must be the user's");
  return input.map((message) => ({ role: message.role, content: message.content }));
}
