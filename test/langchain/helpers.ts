import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, type BaseMessage } from "langchain";
import { EventEmitter, setMaxListeners } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SkillResource } from "../../src/host.js";

/** The agent state the tests read: messages plus the middleware's keys. */
export interface SkillsAgentState {
  messages: BaseMessage[];
  _skillsCatalogVersion?: string;
  skillsLoaded: string[];
  skillResources: Record<string, SkillResource[]>;
}

/** A tool call as `fakeModel().respondWithTools` takes it. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
  id: string;
}

// The most tool calls a scripted model sends in one message, for runAgent's listener limit.
const widestStep = new WeakMap<object, number>();

/** A fake model answering with the given AI messages (arrays are tool calls), then "done". */
export function scriptedModel(steps: Array<ScriptedCall[] | string>) {
  let model = fakeModel();
  for (const step of steps)
    model = typeof step === "string" ? model.respond(new AIMessage(step)) : model.respondWithTools(step);
  const scripted = model.respond(new AIMessage("done"));
  widestStep.set(scripted, Math.max(0, ...steps.map((step) => (typeof step === "string" ? 0 : step.length))));
  return scripted;
}

/** `load_skill` / `unload_skill` calls with predictable ids. */
export const load = (skill: string, id = `load-${skill}`): ScriptedCall => ({
  name: "load_skill",
  args: { skill_name: skill },
  id,
});
export const unload = (skill: string, id = `unload-${skill}`): ScriptedCall => ({
  name: "unload_skill",
  args: { skill_name: skill },
  id,
});

/** The system prompt text of the model's `index`-th call. */
export function systemPromptOf(model: { calls: Array<{ messages: BaseMessage[] }> }, index: number): string {
  const first = model.calls[index]!.messages[0]!;
  return typeof first.content === "string"
    ? first.content
    : first.content.map((block) => ("text" in block ? block.text : "")).join("");
}

/** The ToolMessages of a result, by tool call id. */
export function toolResults(messages: BaseMessage[]): Map<string, { content: string; status: string | undefined }> {
  const results = new Map<string, { content: string; status: string | undefined }>();
  for (const message of messages) {
    if (message.type !== "tool") continue;
    const tool = message as BaseMessage & { tool_call_id: string; status?: string };
    results.set(tool.tool_call_id, { content: String(tool.content), status: tool.status });
  }
  return results;
}

/** Writes skill folders into a new temp folder; `files` maps paths below it to contents. */
export function skillTree(files: Record<string, string>): { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), "skillset-mw-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A minimal SKILL.md. */
export function skillFile(
  name: string,
  description = `Use ${name} for tests.`,
  extra = "",
  body = `# ${name}\n\nFollow the ${name} steps.`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;
}

/** Runs one agent turn with a checkpointer so state can be inspected between turns. */
export async function runAgent(options: {
  middleware: Parameters<typeof createAgent>[0]["middleware"];
  model: ReturnType<typeof scriptedModel>;
  tools?: Parameters<typeof createAgent>[0]["tools"];
  checkpointer?: MemorySaver;
  threadId?: string;
  input?: string;
}) {
  const checkpointer = options.checkpointer ?? new MemorySaver();
  const agent = createAgent({
    model: options.model,
    tools: options.tools ?? [],
    middleware: options.middleware,
    checkpointer,
  });
  const config = { configurable: { thread_id: options.threadId ?? "thread-1" } };
  // LangChain adds one abort listener per parallel tool call to the signal it creates for the
  // run, so a message with more than 10 calls trips Node's leak warning; allow the calls scripted.
  const previousMax = EventEmitter.defaultMaxListeners;
  setMaxListeners(Math.max(previousMax, (widestStep.get(options.model) ?? 0) + 5));
  try {
    const result = (await agent.invoke(
      { messages: [{ role: "user", content: options.input ?? "go" }] },
      config,
    )) as SkillsAgentState;
    return { agent, result, checkpointer, config };
  } finally {
    setMaxListeners(previousMax);
  }
}

/**
 * A SKILL.md as load_skill shows it within `room` characters: cut after a whole line, with a note
 * saying where to go on: `file` (as the note names it) with `readTool`.
 */
export function expectedSkillBody(content: string, room: number, file: string, readTool: string): string {
  if (content.length <= room) return content;
  const shown = content.slice(0, content.lastIndexOf("\n", room) + 1 || room);
  const lines = shown.split("\n").length - 1;
  return `${shown}[… SKILL.md continues after line ${lines}: read ${file} with \`${readTool}\` from line offset ${lines}.]`;
}

/** Records the tool names each model call was bound with (createAgent binds the request's tools per call). */
export function recordBoundTools(model: ReturnType<typeof scriptedModel>): string[][] {
  const bound: string[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools, ...rest) => {
    bound.push((tools as Array<{ name: string }>).map((entry) => entry.name));
    return bindTools(tools, ...rest);
  };
  return bound;
}
