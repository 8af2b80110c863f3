import type { SkillResource } from "../core/resources/skill-resources.js";

/** A thread's loaded skills, as a {@link SkillStateStore} keeps them. */
export interface StoredSkillState {
  /** Loaded skills, in load order. */
  loaded: string[];
  /** The resources discovered when each loaded skill was loaded, by skill name. */
  resources: Record<string, SkillResource[]>;
}

/**
 * Where `skillset/ai` keeps each thread's loaded skills when they should not be derived from the
 * messages: any object with `get` and `set` by thread id, such as a `Map` for one process, or a
 * wrapper over Redis or a database table for several. Calls of one model step are written one
 * after another, each with the state of the one before, so parallel tool calls never overwrite
 * each other's loads.
 *
 * @example
 * ```ts
 * const skills = createSkills({ sources: ["./skills"], store: new Map() });
 * const thread = skills.thread(chatId);
 * ```
 */
export interface SkillStateStore {
  get(threadId: string): StoredSkillState | undefined | PromiseLike<StoredSkillState | undefined>;
  set(threadId: string, state: StoredSkillState): unknown;
}
