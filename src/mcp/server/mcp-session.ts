import {
  applySkillOperations,
  type SkillReply,
  type SkillRequest,
  type SkillStep,
  type SkillThreadState,
} from "../../core/engine/skill-engine.js";
import type { McpServerContext } from "./server-context.js";

/**
 * One MCP session's skills: the loaded set and its resources, as the engine's thread state.
 * An MCP session is a conversation with one client, so its state lives as long as the
 * connection does and nowhere else; the catalog and caches are the server's, shared by all.
 */
export interface McpSkillSession {
  /** Becomes `${CLAUDE_SESSION_ID}` in instructions. */
  readonly id: string;
  /**
   * Runs `action` on the session's current state, after every earlier action of the session has
   * finished (so parallel requests agree on the budget), and applies the operations it returns.
   */
  run(action: (request: SkillRequest) => Promise<SkillStep | SkillReply> | SkillStep): Promise<SkillStep | SkillReply>;
}

/** Creates the skills state of one MCP session. */
export function createMcpSkillSession(context: McpServerContext, id: string): McpSkillSession {
  let state: SkillThreadState = { skills: [], loaded: [], resources: {} };
  let queue: Promise<unknown> = Promise.resolve();
  const sources = async () => context.catalog.sources;

  async function step(action: Parameters<McpSkillSession["run"]>[0]): Promise<SkillStep | SkillReply> {
    // A skill that left the sources is unloaded before the action sees the state.
    const refreshed = await context.engine.refresh(context.catalog, state);
    if (refreshed)
      state = applySkillOperations(
        { ...state, skills: refreshed.skills, catalogVersion: refreshed.version },
        refreshed.operations,
      );
    const outcome = await action({ state, sources, sessionId: id });
    if ("operations" in outcome) state = applySkillOperations(state, outcome.operations);
    return outcome;
  }

  return {
    id,
    run(action) {
      const result = queue.then(() => step(action));
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
