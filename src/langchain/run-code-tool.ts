import type { ClientTool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { tool, ToolMessage, type ToolRuntime } from "langchain";
import type { CodeTool } from "../core/engine/skill-engine.js";
import { RUN_CODE } from "../core/tools/skill-tool-definitions.js";
import { errorMessage } from "./engine-translation.js";
import type { MiddlewareContext } from "./middleware-context.js";
import type { SkillsStateView } from "./skills-state.js";

/**
 * `run_code`: the model's JavaScript, run by the engine in the thread's sandbox (the thread id from the
 * run config). The code calls the tools the model was offered in the step that asked for it, each run
 * as the agent runs a tool call (with a runtime, under this run's config). State updates those tools
 * return (deepagents' `write_file` on a state backend) are applied with the run's result.
 */
export function createRunCodeTool(context: MiddlewareContext) {
  return tool(
    async (input, runtime: ToolRuntime) => {
      const id = runtime.toolCallId;
      const request = context.requestFor(runtime.state as SkillsStateView, runtime);
      const updates: Record<string, unknown>[] = [];
      const tools: Record<string, CodeTool> = {};
      let calls = 0;
      for (const offered of context.codeCallTools.take(id)) {
        // Provider-side tools (a model's built-in web search) have nothing to call here.
        if (typeof (offered as ClientTool).invoke !== "function") continue;
        const entry = offered as ClientTool;
        if (Object.hasOwn(tools, entry.name)) continue;
        tools[entry.name] = async (args) => {
          const call = { type: "tool_call" as const, id: `${id}:${++calls}`, name: entry.name, args: args ?? {} };
          return codeValue(await entry.invoke(call, runtime), updates);
        };
      }
      const reply = await context.engine.runCode(request, RUN_CODE.engineInput(input), tools, {
        alwaysAllowed: context.alwaysAllowed,
        ...(context.skillTools ? { isSkillTool: context.skillTools.isSkillTool } : {}),
      });
      const message = reply.ok
        ? new ToolMessage({ content: reply.text, tool_call_id: id, name: RUN_CODE.name })
        : errorMessage(reply.text, id, RUN_CODE.name);
      if (updates.length === 0) return message;
      return new Command({ update: { ...mergeUpdates(updates), messages: [message] } });
    },
    { name: RUN_CODE.name, description: RUN_CODE.description, schema: RUN_CODE.input },
  );
}

/**
 * What the code gets back from a tool: the text the model would read, or the value when that text is JSON
 * (LangChain writes a tool's object result as JSON). An error result rejects with its text. A `Command`'s
 * state update is kept for the run's own result; its tool message is the value.
 */
function codeValue(result: unknown, updates: Record<string, unknown>[]): unknown {
  if (result instanceof Command) {
    const { messages, ...rest } = (result.update ?? {}) as Record<string, unknown>;
    updates.push(rest);
    const message = Array.isArray(messages) ? messages.find((entry) => ToolMessage.isInstance(entry)) : undefined;
    return message ? codeValue(message, updates) : undefined;
  }
  if (!ToolMessage.isInstance(result)) return result;
  const text =
    typeof result.content === "string"
      ? result.content
      : result.content.map((block) => ("text" in block && typeof block.text === "string" ? block.text : "")).join("");
  if (result.status === "error") throw new Error(text);
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

// Several tool calls' updates of one key: objects (deepagents' `files`) are merged, other values the last wins.
function mergeUpdates(updates: readonly Record<string, unknown>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const update of updates)
    for (const [key, value] of Object.entries(update)) {
      const before = merged[key];
      merged[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
    }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
