import type { BaseMessage, SystemMessage } from "langchain";

/**
 * What the model reads of the tool results and user messages, where skill instructions arrive:
 * the first text of each, in order.
 */
export function messageTexts(messages: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const message of messages as ReadonlyArray<{ type?: string; content?: unknown }>) {
    const type = message.type;
    const text = type === "tool" || type === "human" ? firstText(message.content) : undefined;
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

/** A message's text: the content itself when it is a string, else its first text block. */
export function firstText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find(
    (entry: { type?: string; text?: unknown }) => entry?.type === "text" && typeof entry.text === "string",
  ) as { text: string } | undefined;
  return block?.text;
}

/** The content with its first text replaced and every other block kept (images, files). */
export function replaceFirstText(content: BaseMessage["content"], text: string): BaseMessage["content"] {
  if (typeof content === "string") return text;
  let done = false;
  return content.map((block) => {
    if (done || block.type !== "text") return block;
    done = true;
    return { ...block, text };
  }) as BaseMessage["content"];
}

/**
 * `system` with `section` after it, a blank line between; an agent without a system prompt gets
 * `section` alone, not a prompt that starts with blank lines.
 */
export function appendToSystemMessage(system: SystemMessage, section: string): SystemMessage {
  return system.concat(system.text === "" ? section : "\n\n" + section);
}
