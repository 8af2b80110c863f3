import { getOwn } from "../core/text/safe-text.js";
import { applySkillOperations, type SkillThreadState } from "../core/engine/skill-engine.js";
import { isUserInvocable } from "../core/instructions/skill-command.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import type { ResourceType, SkillResource } from "../core/resources/skill-resources.js";
import { LOAD_SKILL, UNLOAD_SKILL } from "../core/tools/skill-tool-definitions.js";

/** The loaded skills of a thread, as the engine reads them. */
export type LoadedSkillsState = Pick<SkillThreadState, "loaded" | "resources">;

/** What {@link skillsInTranscript} needs to know besides the messages. */
export interface TranscriptContext {
  /** The current catalog's skill of that name. */
  skill(name: string): SkillMetadata | undefined;
  maxLoaded: number;
}

const MARKER = '<skill name="';
const RESOURCES_OPEN = '\n<skill_resources base="';
const RESOURCE_LINE = /^- \[(script|reference|asset|other)\] (.+)$/;

/**
 * The loaded skills a conversation records, replayed from its messages (AI SDK `ModelMessage`s):
 * each successful `load_skill` result (it starts with the skill's `<skill name="…"` tag), each
 * successful `unload_skill` result, and each user message that is a rendered `/name` invocation.
 * Refusals are tool errors and change nothing. The replay keeps to the rules the engine applied
 * when the results were made — a load fits the budget, an invocation frees the least recently
 * loaded skill, only skills of the current catalog count — so a history that was edited, or
 * outlived a smaller budget, still gives a state the engine accepts.
 */
export function skillsInTranscript(messages: readonly unknown[], context: TranscriptContext): LoadedSkillsState {
  let state: LoadedSkillsState = { loaded: [], resources: {} };
  const apply = (operations: SkillOperation[]) => {
    state = applySkillOperations(state, operations);
  };
  const unloadInputs = new Map<string, unknown>();
  for (const message of messages) {
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role === "user") {
      const invoked = invocationOf(firstText(content), context);
      if (!invoked) continue;
      const { skill, text } = invoked;
      const evict =
        !state.loaded.includes(skill.name) && state.loaded.length >= context.maxLoaded ? state.loaded.slice(0, 1) : [];
      apply([...evict.map((name): SkillOperation => ({ kind: "unload", skill: name })), loadOperation(skill, text)]);
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const part of content as Array<Record<string, unknown>>) {
      if (role === "assistant" && part.type === "tool-call" && part.toolName === UNLOAD_SKILL.name)
        unloadInputs.set(String(part.toolCallId), part.input);
      if (role !== "tool" || part.type !== "tool-result") continue;
      const text = successText(part.output);
      if (text === undefined) continue;
      if (part.toolName === LOAD_SKILL.name) {
        const skill = skillOfText(text, context);
        if (
          skill &&
          !skill.disableModelInvocation &&
          !state.loaded.includes(skill.name) &&
          state.loaded.length < context.maxLoaded
        )
          apply([loadOperation(skill, text)]);
      } else if (part.toolName === UNLOAD_SKILL.name) {
        const name = (unloadInputs.get(String(part.toolCallId)) as { skill_name?: unknown } | undefined)?.skill_name;
        if (typeof name === "string" && state.loaded.includes(name)) apply([{ kind: "unload", skill: name }]);
      }
    }
  }
  return state;
}

/** The text of the first text part of a message's content (a string, or an array of parts). */
export function firstText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const part = content.find(
    (entry: { type?: unknown; text?: unknown }) => entry?.type === "text" && typeof entry.text === "string",
  ) as { text: string } | undefined;
  return part?.text;
}

/** The texts the model reads of tool results and user messages: where skill instructions arrive. */
export function visibleTexts(messages: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role === "user") {
      const text = firstText(content);
      if (text !== undefined) texts.push(text);
    } else if (role === "tool" && Array.isArray(content)) {
      for (const part of content as Array<{ type?: unknown; output?: unknown }>) {
        const text = part.type === "tool-result" ? successText(part.output) : undefined;
        if (text !== undefined) texts.push(text);
      }
    }
  }
  return texts;
}

// A user message that is a rendered invocation: the engine's invocation text starts with the
// skill's tag, and only a skill the user may invoke counts.
function invocationOf(
  text: string | undefined,
  context: TranscriptContext,
): { skill: SkillMetadata; text: string } | undefined {
  const skill = text === undefined ? undefined : skillOfText(text, context);
  return skill && text !== undefined && isUserInvocable(skill) ? { skill, text } : undefined;
}

function skillOfText(text: string, context: TranscriptContext): SkillMetadata | undefined {
  if (!text.startsWith(MARKER)) return undefined;
  const end = text.indexOf('"', MARKER.length);
  return end === -1 ? undefined : context.skill(text.slice(MARKER.length, end));
}

// A tool output the model read as a result, not an error: `{ type: "text" }` for a string the
// tool returned, or the text of `{ type: "content" }`.
function successText(output: unknown): string | undefined {
  const { type, value } = (output ?? {}) as { type?: unknown; value?: unknown };
  if (type === "text" && typeof value === "string") return value;
  if (type === "content") return firstText(value);
  return undefined;
}

// The resources a load result lists after the instructions, so the prompt's summary of loaded
// skills matches what a host that keeps the state in a store shows.
function loadOperation(skill: SkillMetadata, text: string): SkillOperation {
  const resources: SkillResource[] = [];
  const start = text.lastIndexOf(RESOURCES_OPEN);
  const end = start === -1 ? -1 : text.indexOf("\n</skill_resources>", start);
  if (end !== -1) {
    const directory = skillDirectory(skill);
    for (const line of text.slice(text.indexOf("\n", start + 1) + 1, end).split("\n")) {
      const match = RESOURCE_LINE.exec(line);
      if (!match) continue;
      const relativePath = unescapeAttribute(match[2]!);
      resources.push({ path: `${directory}/${relativePath}`, relativePath, type: match[1] as ResourceType });
    }
  }
  return { kind: "load", skill: skill.name, resources };
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&amp;": "&" };

function unescapeAttribute(text: string): string {
  return text.replace(/&(?:lt|gt|quot|amp);/g, (entity) => getOwn(ENTITIES, entity) ?? entity);
}
