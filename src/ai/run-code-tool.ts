import type * as AiSdk from "ai";
import type { Tool, ToolSet } from "ai";
import type { CodeTool, SkillEngine, SkillRequest } from "../core/engine/skill-engine.js";
import { RUN_CODE } from "../core/tools/skill-tool-definitions.js";

/** What run_code needs of its thread (a part of `skill-tools.ts`'s host). */
interface CodeHost {
  engine: SkillEngine;
  step(messages: readonly unknown[]): { request: Promise<SkillRequest> };
}

interface CallOptions {
  toolCallId: string;
  messages: readonly unknown[];
  abortSignal?: AbortSignal;
}

/**
 * `run_code` for the AI SDK: the model's code reaches `codeTools` (the app's, from `codeMode.tools`) and the
 * tools skills bring while a loaded skill discloses them, each as `tools.<camelCaseName>(input)`. Input is
 * checked against the tool's schema as the AI SDK checks a model's call; the tool's `execute` runs with the
 * step's messages and a call id of its own. A failed run is thrown, as every skill tool's refusal is.
 */
export function createRunCodeTool(
  host: CodeHost,
  codeTools: ToolSet,
  skillTools: ToolSet,
  refuse: (text: string) => Error,
): Tool<{ code: string }, string> {
  return {
    description: RUN_CODE.description,
    inputSchema: RUN_CODE.input,
    execute: async (input, options: CallOptions) => {
      const request = await host.step(options.messages).request;
      let calls = 0;
      const callable = (name: string, tool: Tool): CodeTool | undefined => {
        const execute = tool.execute as ((input: unknown, options: CallOptions) => unknown) | undefined;
        if (!execute) return undefined;
        return async (args) => {
          const checked = await validated(tool, args ?? {});
          const id = `${options.toolCallId}:${++calls}`;
          return lastValue(
            await execute(checked, {
              toolCallId: id,
              messages: options.messages,
              ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
            }),
          );
        };
      };
      const tools: Record<string, CodeTool> = {};
      for (const [name, tool] of [...Object.entries(codeTools), ...Object.entries(skillTools)]) {
        const call = callable(name, tool);
        if (call && !Object.hasOwn(tools, name)) tools[name] = call;
      }
      const reply = await host.engine.runCode(request, RUN_CODE.engineInput(input), tools, {
        isSkillTool: (name) => Object.hasOwn(skillTools, name),
      });
      if (!reply.ok) throw refuse(reply.text);
      return reply.text;
    },
  };
}

// The input as the tool's schema reads it (defaults applied), or an error naming what is wrong. Through the
// AI SDK's own `asSchema`, imported when code first calls a tool (skillset/ai otherwise imports only its
// types), and looked up, so an AI SDK without it still runs the tool.
async function validated(tool: Tool, args: unknown): Promise<unknown> {
  const ai = (await import("ai")) as Partial<typeof AiSdk>;
  const schema = ai.asSchema?.(tool.inputSchema as Parameters<typeof AiSdk.asSchema>[0]);
  if (!schema?.validate) return args;
  const result = await schema.validate(args);
  if (result.success) return result.value;
  throw new Error(`invalid input: ${result.error.message}`);
}

// A streaming tool (an async iterable of partial results) counts by its last, final value.
async function lastValue(result: unknown): Promise<unknown> {
  if (typeof result !== "object" || result === null || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}
