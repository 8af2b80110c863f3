import type { Tool, ToolSet } from "ai";
import type { z } from "zod";
import { SkillsetError } from "../errors/skillset-error.js";
import type { SkillCall } from "../core/loaded/plan-skill-calls.js";
import {
  applySkillOperations,
  type SkillEngine,
  type SkillReply,
  type SkillRequest,
  type SkillStep,
} from "../core/engine/skill-engine.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { createRunCodeTool } from "./run-code-tool.js";
import { disclosedTools, includedTools, skillToolsNote, undisclosedToolMessage } from "../core/tools/included-tools.js";
import {
  LOAD_SKILL,
  READ_SKILL_RESOURCE,
  RUN_CODE,
  RUN_SKILL_SCRIPT,
  SEARCH_SKILLS,
  UNLOAD_SKILL,
} from "../core/tools/skill-tool-definitions.js";

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
  /** With code mode: the app's tools the model's code may call; `run_code` is offered. */
  codeTools?: ToolSet;
}

interface CallOptions {
  toolCallId: string;
  messages: readonly unknown[];
}

// A definition as an AI SDK tool: its description and input schema, with this host's `execute`.
function aiTool<Input extends z.ZodObject>(
  definition: { description: string; input: Input },
  execute: (input: z.output<Input>, options: CallOptions) => Promise<string>,
): Tool<z.output<Input>, string> {
  return { description: definition.description, inputSchema: definition.input, execute };
}

// A tool that reads the step's state and changes none of it: the engine's reply, or its refusal thrown.
function replyTool<Input extends z.ZodObject, EngineInput>(
  host: SkillToolsHost,
  definition: { description: string; input: Input; engineInput(input: z.output<Input>): EngineInput },
  call: (request: SkillRequest, input: EngineInput) => Promise<SkillReply>,
): Tool<z.output<Input>, string> {
  return aiTool(definition, async (input, options) =>
    reply(await call(await host.step(options.messages).request, definition.engineInput(input))),
  );
}

/**
 * The skill tools for the AI SDK, built from their definitions (`core/tools/skill-tool-definitions.ts`).
 * A refusal is thrown, so the AI SDK hands it to the model as a tool error (`error-text`) and the
 * loop goes on; the thread's state only ever changes through successful results.
 */
export function createSkillTools(host: SkillToolsHost, include: SkillToolsIncluded): ToolSet {
  // The AI SDK sends tools in the order of this object: the skill tools last, so that offering
  // them changes only the end of the tools list.
  return {
    [LOAD_SKILL.name]: loadSkillTool(host, include),
    [UNLOAD_SKILL.name]: aiTool(UNLOAD_SKILL, async (input, options) => {
      const { skill } = UNLOAD_SKILL.engineInput(input);
      const step = skillCall(host, options, "unload", skill);
      return settle(host.engine.unload(await step.request, { skill, id: options.toolCallId }, [...step.calls]), step);
    }),
    ...(include.search !== false
      ? { [SEARCH_SKILLS.name]: replyTool(host, SEARCH_SKILLS, (request, input) => host.engine.search(request, input)) }
      : {}),
    ...(include.readResource
      ? {
          [READ_SKILL_RESOURCE.name]: replyTool(host, READ_SKILL_RESOURCE, (request, input) =>
            host.engine.readResource(request, input),
          ),
        }
      : {}),
    ...(include.runScript
      ? {
          [RUN_SKILL_SCRIPT.name]: replyTool(host, RUN_SKILL_SCRIPT, (request, input) =>
            host.engine.runScript(request, input),
          ),
        }
      : {}),
    ...(include.codeTools
      ? {
          [RUN_CODE.name]: createRunCodeTool(
            host,
            include.codeTools,
            include.skillTools,
            (text) => new SkillToolRefusal(text),
          ),
        }
      : {}),
    ...gatedSkillTools(host, include.skillTools),
  };
}

// `load_skill`, planned with the step's earlier skill calls; its result says which tools the skill brings.
function loadSkillTool(host: SkillToolsHost, include: SkillToolsIncluded): Tool {
  const { engine } = host;
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

  return aiTool(LOAD_SKILL, async (input, options) => {
    const call = { ...LOAD_SKILL.engineInput(input), id: options.toolCallId };
    const step = skillCall(host, options, "load", call.skill);
    const request = await step.request;
    const result = await engine.load(request, call, [...step.calls]);
    return settle(
      result.ok ? { ...result, text: await withToolsNote(result.text, request, result.operations) } : result,
      step,
    );
  });
}

// Registered up front so the AI SDK knows them; `prepareStep` leaves them out of `activeTools`
// until a loaded skill names them, and a call before that is refused as for an unknown tool.
function gatedSkillTools(host: SkillToolsHost, skillTools: ToolSet): ToolSet {
  return Object.fromEntries(
    Object.entries(skillTools).map(([name, tool]) => [
      name,
      {
        ...tool,
        execute: async (input: unknown, options: CallOptions) => {
          const disclosed = disclosedTools(await host.engine.loadedSkills(await host.step(options.messages).request));
          if (!disclosed.includes(name)) throw new SkillToolRefusal(undisclosedToolMessage(name));
          return (tool.execute as (input: unknown, options: CallOptions) => unknown)(input, options);
        },
      } as Tool,
    ]),
  );
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
