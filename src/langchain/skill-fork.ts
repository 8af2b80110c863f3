import type { LanguageModelLike } from "@langchain/core/language_models/base";
import type { ClientTool, ServerTool } from "@langchain/core/tools";
import { AIMessage, createAgent, createMiddleware, HumanMessage, type AgentMiddleware } from "langchain";
import type { SkillFork } from "../core/engine/skill-engine.js";
import { emitSkillsEvent, type SkillsLogger } from "../core/skill-events.js";
import type { SkillOperation } from "../core/loaded/skill-operations.js";
import { allowedToolUnion, isToolAllowed } from "../core/tools/tool-policy.js";

/**
 * An agent type forked skills may run in (a deepagents `SubAgent` spec fits). What it leaves
 * out is the parent agent's: its model, and its own tools limited by the skill's
 * `allowed-tools`. The skills middleware is added to its middleware, so the fork starts with
 * the skill loaded and may use other skills.
 */
export interface ForkAgentSpec {
  name?: string;
  model?: LanguageModelLike | string;
  tools?: Array<ClientTool | ServerTool>;
  systemPrompt?: string;
  middleware?: readonly AgentMiddleware[];
}

/** A compiled agent (a deepagents `CompiledSubAgent` fits) that runs forked skills as it is, with its own tools. */
export interface CompiledForkAgent {
  name?: string;
  runnable: { invoke(input: never, config?: never): Promise<unknown> };
}

/** Agent types for `context: fork` skills' `agent:`, by name: a record, or a list of named ones (deepagents' `subagents`). */
export type ForkAgents =
  | Record<string, ForkAgentSpec | CompiledForkAgent>
  | ReadonlyArray<(ForkAgentSpec | CompiledForkAgent) & { name: string }>;

/** The agent type a skill without `agent:` runs in: the parent's model and tools, unless `forkAgents` defines it. */
const DEFAULT_FORK_AGENT = "general-purpose";

/** The parent agent's model and tools as its model call had them. */
export interface ForkParent {
  model: LanguageModelLike;
  tools: ReadonlyArray<ClientTool | ServerTool>;
}

/** One forked run. */
export interface ForkRun {
  fork: SkillFork;
  task: string;
  /** The fork's own skill state: the skill loaded. */
  operations: SkillOperation[];
  /** How deep this fork is: 1 for a fork of the top agent. */
  depth: number;
  parent: ForkParent | undefined;
  emit: SkillsLogger | undefined;
  writer: ((chunk: unknown) => void) | undefined;
  threadId: string | undefined;
  signal: AbortSignal | undefined;
}

interface ForkRunnerOptions {
  agents: ForkAgents | undefined;
  /** The skills middleware, added to every fork built here. */
  middleware: () => AgentMiddleware;
  /** Tools the skills middleware brings itself: a fork gets them from its own copy. */
  isMiddlewareTool: (name: string) => boolean;
  alwaysAllowed: ReadonlySet<string>;
  maxSteps: number;
  /** How deep forks nest: a fork deeper than this is refused. */
  maxDepth: number;
  logger: SkillsLogger | undefined;
}

const FORK_SYSTEM_PROMPT =
  "You are a forked agent running one skill for another agent. Do the task you are given with the tools you have; your final message is your whole answer.";
// The model node of a LangChain v1 agent, whose updates count a fork's steps.
const MODEL_NODE = "model_request";

/** What a fork gives back: its final answer, or why it has none, as text for the model. */
export interface ForkOutcome {
  ok: boolean;
  text: string;
}

/** Runs one forked skill; see {@link createForkRunner}. */
export type ForkRunner = (run: ForkRun) => Promise<ForkOutcome>;

/**
 * Runs forked skills: builds (and caches) the agent type a skill names, starts it with the
 * skill's task and the skill loaded, forwards its progress to the parent's custom stream, stops
 * it after `maxSteps` model calls, and reports its final answer or its failure as text.
 */
export function createForkRunner(options: ForkRunnerOptions): ForkRunner {
  const agents = createForkAgents(options);
  return async function runFork(run: ForkRun): Promise<ForkOutcome> {
    const skill = run.fork.skill;
    const agentName = run.fork.agent ?? DEFAULT_FORK_AGENT;
    const emit = (entry: Parameters<SkillsLogger>[0]) => emitSkillsEvent(options.logger, run.emit, entry);
    if (run.depth > options.maxDepth) {
      emit({
        level: "warn",
        event: "skill_refused",
        message: `Skill '${skill}' refused: forks nest at most ${options.maxDepth} deep`,
        skill,
        reason: "fork-depth",
      });
      return {
        ok: false,
        text: `Error: Skill '${skill}' runs in a forked agent, and this agent is a fork already (forks nest at most ${options.maxDepth} deep). Do the task without that skill.`,
      };
    }
    const agent = agents.agentFor(run);
    if (typeof agent === "string") {
      emit({
        level: "warn",
        event: "fork_finished",
        message: `Fork of skill '${skill}' did not start: ${agent}`,
        skill,
        agent: agentName,
        ok: false,
        steps: 0,
      });
      return { ok: false, text: `Error: Skill '${skill}' runs in a forked agent, which could not start: ${agent}.` };
    }
    const started = performance.now();
    emit({
      level: "info",
      event: "fork_started",
      message: `Skill '${skill}' started in a forked '${agentName}' agent`,
      skill,
      agent: agentName,
      depth: run.depth,
    });
    let steps = 0;
    const onReply = (reply: AIMessage): boolean => {
      steps++;
      const toolCalls = (reply.tool_calls ?? []).map((call) => call.name);
      emit({
        level: "info",
        event: "fork_step",
        message: `Fork of skill '${skill}': model call ${steps}${toolCalls.length > 0 ? `, calling ${toolCalls.join(", ")}` : ", answered"}`,
        skill,
        step: steps,
        toolCalls,
      });
      // A compiled agent has no step limit of ours inside: stop reading it.
      return toolCalls.length > 0 && steps >= options.maxSteps && !agents.isBuilt(agent);
    };
    let outcome: ForkOutcome;
    try {
      const answer = await followFork(agent, run, options.maxSteps, onReply);
      const text = answer?.text.trim() ?? "";
      if (answer && (answer.tool_calls?.length ?? 0) > 0)
        outcome = {
          ok: false,
          text: `Error: Skill '${skill}' ran in a forked agent that was stopped after ${steps} model calls (its limit) before it answered.`,
        };
      else outcome = { ok: true, text: text || `(The forked agent of skill '${skill}' finished without an answer.)` };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = { ok: false, text: `Error: Skill '${skill}' ran in a forked agent that failed: ${message}` };
    }
    const durationMs = Math.round(performance.now() - started);
    emit({
      level: outcome.ok ? "info" : "warn",
      event: "fork_finished",
      message: `Fork of skill '${skill}' ${outcome.ok ? "answered" : "failed"} after ${steps} model calls`,
      skill,
      agent: agentName,
      ok: outcome.ok,
      steps,
      durationMs,
    });
    return outcome;
  };
}

// The agent a fork runs in, built once per agent type, model and offered tools; or why there is none.
function createForkAgents(options: ForkRunnerOptions) {
  const agentTypes = new Map<string, ForkAgentSpec | CompiledForkAgent>(
    Array.isArray(options.agents)
      ? options.agents.map((agent) => [agent.name, agent])
      : Object.entries(options.agents ?? {}),
  );
  // A fork starts with no messages, so its AI messages count its model calls: at the limit it
  // ends before the next one (the last call's tools have run).
  const stepLimit = createMiddleware({
    name: "SkillsetForkStepLimit",
    beforeModel: {
      canJumpTo: ["end"],
      hook: (state) =>
        state.messages.filter((message) => AIMessage.isInstance(message)).length >= options.maxSteps
          ? { jumpTo: "end" as const }
          : undefined,
    },
  });
  // Compiled forks, by the model (or spec) they were built for, then agent type and tool names.
  const compiled = new WeakMap<object, Map<string, Runnable>>();
  const built = new WeakSet<Runnable>();

  function agentFor(run: ForkRun): Runnable | string {
    const name = run.fork.agent ?? DEFAULT_FORK_AGENT;
    const type = agentTypes.get(name) ?? (name === DEFAULT_FORK_AGENT ? {} : undefined);
    if (!type)
      return `it names the agent '${name}', which this agent does not have (${agentTypes.size > 0 ? `agent types: ${[...new Set([DEFAULT_FORK_AGENT, ...agentTypes.keys()])].join(", ")}` : `only '${DEFAULT_FORK_AGENT}'`})`;
    if ("runnable" in type) return type.runnable as Runnable;
    const model = type.model ?? run.parent?.model;
    const tools = type.tools ?? run.parent?.tools.filter((entry) => !options.isMiddlewareTool(toolName(entry)));
    if (model === undefined || tools === undefined)
      return "the agent's model is not known in this process (the step that asked for it ran elsewhere); ask again";
    const union = allowedToolUnion([run.fork]);
    const offered = tools.filter((entry) => isToolAllowed(toolName(entry), union, options.alwaysAllowed));
    const key = `${name}\0${offered.map(toolName).join("\0")}`;
    const owner = typeof model === "string" ? type : (model as object);
    let byKey = compiled.get(owner);
    if (!byKey) compiled.set(owner, (byKey = new Map()));
    let agent = byKey.get(key);
    if (!agent) {
      const middleware = [...(type.middleware ?? []), options.middleware(), stepLimit] as AgentMiddleware[];
      agent = createAgent({
        model,
        tools: offered,
        systemPrompt: type.systemPrompt ?? FORK_SYSTEM_PROMPT,
        middleware,
      }) as unknown as Runnable;
      byKey.set(key, agent);
      built.add(agent);
    }
    return agent;
  }

  // Only an agent built here has the step limit inside; a compiled one comes as it is.
  return { agentFor, isBuilt: (agent: Runnable) => built.has(agent) };
}

// Runs the fork to its end and gives its last AI message, forwarding its custom stream to the
// parent's and each model reply to `onReply`, which stops reading the fork by returning true.
async function followFork(
  agent: Runnable,
  run: ForkRun,
  maxSteps: number,
  onReply: (reply: AIMessage) => boolean,
): Promise<AIMessage | undefined> {
  const input = {
    messages: [new HumanMessage(run.task)],
    skillsLoaded: run.operations,
    skillResources: run.operations,
    skillsForkDepth: run.depth,
  };
  const config = {
    ...(run.threadId !== undefined ? { configurable: { thread_id: run.threadId } } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    // The step limit stops the fork first; this only bounds what it does not count.
    recursionLimit: maxSteps * 10 + 20,
  };
  if (typeof agent.stream !== "function")
    return lastAIMessage(((await agent.invoke(input as never, config as never)) as { messages?: unknown[] }).messages);
  let answer: AIMessage | undefined;
  const stream = await agent.stream(input, { ...config, streamMode: ["updates", "custom", "values"] });
  for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
    if (mode === "values") {
      answer = lastAIMessage((chunk as { messages?: unknown[] }).messages) ?? answer;
      continue;
    }
    if (mode === "custom") {
      run.writer?.(
        typeof chunk === "object" && chunk !== null
          ? { ...chunk, fork: run.fork.skill }
          : { type: "skillset", fork: run.fork.skill, data: chunk },
      );
      continue;
    }
    const reply = modelReply(chunk);
    if (!reply) continue;
    answer = reply;
    if (onReply(reply)) break;
  }
  return answer;
}

interface Runnable {
  invoke(input: never, config?: never): Promise<unknown>;
  stream?(input: unknown, config: unknown): Promise<AsyncIterable<unknown>>;
}

// The AI message of a model node's update, if this chunk is one.
function modelReply(chunk: unknown): AIMessage | undefined {
  const update = (chunk as Record<string, unknown> | undefined)?.[MODEL_NODE];
  if (update === undefined) return undefined;
  const updates = Array.isArray(update) ? update : [update];
  return lastAIMessage(updates.flatMap((entry: { messages?: unknown[] }) => entry?.messages ?? []));
}

function lastAIMessage(messages: readonly unknown[] | undefined): AIMessage | undefined {
  return messages?.findLast((message): message is AIMessage => AIMessage.isInstance(message));
}

/** The name of a LangChain tool (client or server). */
export function toolName(entry: unknown): string {
  return String((entry as { name?: unknown }).name);
}
