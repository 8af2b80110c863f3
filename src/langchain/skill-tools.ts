import type { ClientTool } from "@langchain/core/tools";
import { SkillsetError } from "../errors/skillset-error.js";
import type { SkillsLogger } from "../core/skill-events.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import { includedTools } from "../core/tools/included-tools.js";

/**
 * Gives the tools a skill brings (those it names in `metadata.include_tools`), for one skill and
 * one thread. Called at most once per skill and thread in a process; it must give the same tools
 * within a thread. `runtime` is LangChain's runtime of the call that first needs them.
 */
export type SkillToolsResolver = (
  skillName: string,
  runtime: unknown,
) => readonly ClientTool[] | Promise<readonly ClientTool[]>;

/** Option `skillTools` of `createSkillsMiddleware`: the tools skills may bring, or a resolver. */
export type SkillToolsOption = readonly ClientTool[] | SkillToolsResolver;

/** A skill's tools as this agent supplies them: what it offers, and the names nobody supplies. */
export interface ResolvedSkillTools {
  tools: ClientTool[];
  unavailable: string[];
}

/** The middleware's view of the skill tools: registration, resolution per thread, gating. */
export interface SkillToolProvider {
  /** Tools registered up front (the array form): the agent knows them, the middleware hides them. */
  readonly registered: readonly ClientTool[];
  /** Whether `name` is a skill tool this provider has given or registered (gated unless disclosed). */
  isSkillTool(name: string): boolean;
  /** The tools of one skill in one thread; a clashing name is an error naming it. */
  resolve(skill: SkillMetadata, thread: string, runtime: unknown): Promise<ResolvedSkillTools>;
  /** Records the agent's own tools (seen in a model request), so a skill tool may not clash with them. */
  noteAgentTools(names: Iterable<string>): void;
}

// Threads whose resolved tools stay cached; past this the least recently used is resolved again.
const MAX_CACHED_THREADS = 1000;

/**
 * Builds the provider. `reserved` are the middleware's own tool names. The array form is checked
 * here (a name twice, or a reserved one, throws); a resolver's tools are checked when resolved.
 */
export function createSkillToolProvider(
  option: SkillToolsOption,
  reserved: readonly string[],
  logger?: SkillsLogger,
): SkillToolProvider {
  const agentTools = new Set<string>();
  const known = new Map<string, ClientTool>();
  const registered = typeof option === "function" ? [] : [...option];
  for (const entry of registered) {
    if (reserved.includes(entry.name))
      throw new SkillsetError(
        "invalid-options",
        `createSkillsMiddleware: skillTools: '${entry.name}' is the name of a skills middleware tool`,
      );
    if (known.has(entry.name))
      throw new SkillsetError(
        "invalid-options",
        `createSkillsMiddleware: skillTools: two tools are named '${entry.name}'`,
      );
    known.set(entry.name, entry);
  }
  const resolver: SkillToolsResolver = typeof option === "function" ? option : () => registered;
  const threads = new Map<string, Map<string, Promise<readonly ClientTool[]>>>();
  const reported = new Set<string>();

  const supplied = (thread: string, skill: string, runtime: unknown): Promise<readonly ClientTool[]> => {
    let skills = threads.get(thread);
    if (skills) threads.delete(thread);
    else skills = new Map();
    if (threads.size >= MAX_CACHED_THREADS) threads.delete(threads.keys().next().value!);
    threads.set(thread, skills);
    let tools = skills.get(skill);
    if (!tools) {
      tools = Promise.resolve().then(() => resolver(skill, runtime));
      skills.set(skill, tools);
      // A failed resolution is tried again by the next call, not cached.
      tools.catch(() => skills.delete(skill));
    }
    return tools;
  };

  return {
    registered,
    isSkillTool: (name) => known.has(name),
    noteAgentTools(names) {
      for (const name of names) if (!known.has(name) && !reserved.includes(name)) agentTools.add(name);
    },
    async resolve(skill, thread, runtime) {
      const names = includedTools(skill);
      if (names.length === 0) return { tools: [], unavailable: [] };
      const given = await supplied(thread, skill.name, runtime);
      const tools: ClientTool[] = [];
      for (const name of names) {
        const entry = given.find((candidate) => candidate.name === name);
        if (!entry) continue;
        const clash =
          reserved.includes(name) || agentTools.has(name)
            ? "one of the agent's own tools"
            : known.has(name) && known.get(name) !== entry
              ? "another skill's tool"
              : undefined;
        if (clash)
          throw new SkillsetError(
            "invalid-options",
            `The tool '${name}' that skill '${skill.name}' brings has the name of ${clash}; rename one of them.`,
          );
        known.set(name, entry);
        tools.push(entry);
      }
      const unavailable = names.filter((name) => !tools.some((entry) => entry.name === name));
      const key = `${skill.name}\u0000${unavailable.join(" ")}`;
      if (unavailable.length > 0 && !reported.has(key)) {
        reported.add(key);
        logger?.({
          level: "warn",
          event: "skill_tools_unavailable",
          message: `Skill '${skill.name}' names tools nobody supplies: ${unavailable.join(", ")}`,
          skill: skill.name,
          tools: unavailable,
        });
      }
      return { tools, unavailable };
    },
  };
}
