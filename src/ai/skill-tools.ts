import type { Tool, ToolSet } from "ai";
import { z } from "zod";
import { SkillsetError } from "../errors/skillset-error.js";
import type { SkillCall } from "../core/loaded/plan-skill-calls.js";
import { DEFAULT_RESOURCE_LINES } from "../core/resources/read-resource.js";
import {
  applySkillOperations,
  type SkillEngine,
  type SkillReply,
  type SkillRequest,
  type SkillStep,
} from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { disclosedTools, includedTools, skillToolsNote, undisclosedToolMessage } from "../core/tools/included-tools.js";
import {
  LOAD_SKILL_DESCRIPTION,
  READ_RESOURCE_DESCRIPTION,
  RUN_SCRIPT_DESCRIPTION,
  SEARCH_SKILLS_DESCRIPTION,
  UNLOAD_SKILL_DESCRIPTION,
} from "../core/tools/skill-tool-messages.js";

/**
 * One model step of one thread, as the tools see it. The AI SDK hands every tool call of a step
 * the same `messages` array (the step's input), so that array identifies the step: the calls
 * share the state from before it and the list of skill calls made so far, and the engine plans
 * each call with the calls before it, exactly as if it had seen the whole step at once.
 */
export interface SkillsStep {
  /** The thread's state before this step. */
  request: Promise<SkillRequest>;
  /** Skill calls of this step, in the order they started (the model's order). */
  calls: SkillCall[];
  /** Keeps the operations of a successful call (a store writes them; messages already hold them). */
  record(operations: readonly SkillOperation[]): Promise<void>;
}

/** What the tools need of their thread. */
export interface SkillToolsHost {
  engine: SkillEngine;
  step(messages: readonly unknown[]): SkillsStep;
}

/** Which of the optional tools a thread has. */
export interface SkillToolsIncluded {
  readResource: boolean;
  runScript: boolean;
  /** `"auto"`: offered, and `prepareStep` hides it while the catalog fits its budget. */
  search: boolean | "auto";
  /** Tools skills bring (`metadata.include_tools`), callable only while a loaded skill names them. */
  skillTools: ToolSet;
}

interface CallOptions {
  toolCallId: string;
  messages: readonly unknown[];
}

const loadInput = z.object({
  skill_name: z.string().describe("Name of the skill to load, from the skills list."),
  arguments: z
    .string()
    .optional()
    .describe("Arguments for the skill, as a user would type them after /name (see the skill's argument hint)."),
});
const unloadInput = z.object({ skill_name: z.string().describe("Name of the loaded skill to unload.") });
const readInput = z.object({
  skill_name: z.string().describe("A loaded skill."),
  path: z.string().describe("Path relative to the skill's folder, e.g. references/guide.md."),
  offset: z.number().int().min(0).optional().describe("First line to read, 0-based. Default 0."),
  limit: z.number().int().min(1).max(2000).optional().describe(`Lines to read. Default ${DEFAULT_RESOURCE_LINES}.`),
});
const searchInput = z.object({
  query: z.string().describe("What you need a skill for, in a few words (the task, the file type, the tool)."),
  limit: z.number().int().min(1).max(25).optional().describe("How many skills to return. Default 5."),
});
const runInput = z.object({
  skill_name: z.string().describe("A loaded skill."),
  command: z.string().describe("The command, e.g. `python3 scripts/profile_csv.py data.csv`."),
});

/**
 * The skill tools for the AI SDK, with the argument names of the LangChain tools. A refusal is
 * thrown, so the AI SDK hands it to the model as a tool error (`error-text`) and the loop goes on;
 * the thread's state only ever changes through successful results.
 */
export function createSkillTools(host: SkillToolsHost, include: SkillToolsIncluded): ToolSet {
  const { engine } = host;

  const loadSkill: Tool<z.infer<typeof loadInput>, string> = {
    description: LOAD_SKILL_DESCRIPTION,
    inputSchema: loadInput,
    execute: async ({ skill_name: skill, arguments: args }, options: CallOptions) => {
      const step = skillCall(host, options, "load", skill);
      const call = { skill, id: options.toolCallId, ...(args !== undefined ? { arguments: args } : {}) };
      const request = await step.request;
      const result = await engine.load(request, call, [...step.calls]);
      return settle(
        result.ok ? { ...result, text: await withToolsNote(result.text, request, result.operations) } : result,
        step,
      );
    },
  };

  const unloadSkill: Tool<z.infer<typeof unloadInput>, string> = {
    description: UNLOAD_SKILL_DESCRIPTION,
    inputSchema: unloadInput,
    execute: async ({ skill_name: skill }, options: CallOptions) => {
      const step = skillCall(host, options, "unload", skill);
      return settle(engine.unload(await step.request, { skill, id: options.toolCallId }, [...step.calls]), step);
    },
  };

  const readResource: Tool<z.infer<typeof readInput>, string> = {
    description: READ_RESOURCE_DESCRIPTION,
    inputSchema: readInput,
    execute: async ({ skill_name: skill, path, offset, limit }, options: CallOptions) => {
      const input = {
        skill,
        path,
        ...(offset !== undefined ? { offset } : {}),
        ...(limit !== undefined ? { limit } : {}),
      };
      return reply(await engine.readResource(await host.step(options.messages).request, input));
    },
  };

  const runScript: Tool<z.infer<typeof runInput>, string> = {
    description: RUN_SCRIPT_DESCRIPTION,
    inputSchema: runInput,
    execute: async ({ skill_name: skill, command }, options: CallOptions) =>
      reply(await engine.runScript(await host.step(options.messages).request, { skill, command })),
  };

  const searchSkills: Tool<z.infer<typeof searchInput>, string> = {
    description: SEARCH_SKILLS_DESCRIPTION,
    inputSchema: searchInput,
    execute: async ({ query, limit }, options: CallOptions) =>
      reply(
        await engine.search(await host.step(options.messages).request, {
          query,
          ...(limit !== undefined ? { limit } : {}),
        }),
      ),
  };

  // What a load says about the tools its skill brings: offered from the next step, or missing.
  async function withToolsNote(
    text: string,
    request: SkillRequest,
    operations: readonly SkillOperation[],
  ): Promise<string> {
    const loaded = await engine.loadedSkills({ ...request, state: applySkillOperations(request.state, operations) });
    const tools = includedTools(loaded.at(-1) ?? { metadata: {} });
    const note = skillToolsNote(
      tools,
      tools.filter((name) => !(name in include.skillTools)),
    );
    return note === undefined ? text : `${text}\n\n${note}`;
  }

  // Registered up front so the AI SDK knows them; `prepareStep` leaves them out of `activeTools`
  // until a loaded skill names them, and a call before that is refused as for an unknown tool.
  const gated = Object.fromEntries(
    Object.entries(include.skillTools).map(([name, tool]) => [
      name,
      {
        ...tool,
        execute: async (input: unknown, options: CallOptions) => {
          const disclosed = disclosedTools(await engine.loadedSkills(await host.step(options.messages).request));
          if (!disclosed.includes(name)) throw new SkillToolRefusal(undisclosedToolMessage(name));
          return (tool.execute as (input: unknown, options: CallOptions) => unknown)(input, options);
        },
      } as Tool,
    ]),
  );

  // The AI SDK sends tools in the order of this object: the skill tools last, so that offering
  // them changes only the end of the tools list.
  return {
    load_skill: loadSkill,
    unload_skill: unloadSkill,
    ...(include.search !== false ? { search_skills: searchSkills } : {}),
    ...(include.readResource ? { read_skill_resource: readResource } : {}),
    ...(include.runScript ? { run_skill_script: runScript } : {}),
    ...gated,
  };
}

/**
 * What a skill tool throws for a refusal. The AI SDK gives the model the error's message (6) or
 * its `toString()` (7); both are the refusal's text alone, as the other hosts word it.
 */
class SkillToolRefusal extends SkillsetError {
  constructor(text: string) {
    super("skill-tool-refused", text);
  }

  override toString(): string {
    return this.message;
  }
}

// Registers the call with its step before anything is awaited, so the step's calls are in the
// order the AI SDK started them: the model's order.
function skillCall(host: SkillToolsHost, options: CallOptions, action: SkillCall["action"], skill: string): SkillsStep {
  const step = host.step(options.messages);
  step.calls.push({ id: options.toolCallId, action, skill });
  return step;
}

async function settle(result: SkillStep, step: SkillsStep): Promise<string> {
  if (!result.ok) throw new SkillToolRefusal(result.text);
  await step.record(result.operations);
  return result.text;
}

function reply(result: SkillReply): string {
  if (!result.ok) throw new SkillToolRefusal(result.text);
  return result.text;
}
