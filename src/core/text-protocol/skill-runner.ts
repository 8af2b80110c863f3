import { createCatalog, type Catalog } from "../catalog/catalog.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import {
  applySkillOperations,
  createSkillEngine,
  type SkillEngine,
  type SkillRequest,
  type SkillThreadState,
} from "../engine/skill-engine.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../../exec/command-allow-list.js";
import { resultTag } from "./format-results.js";
import { parseSkillInstructions } from "./parse-instructions.js";
import { runSkillInstructions } from "./run-instructions.js";
import type { SkillRunResult, SkillRunStep, SkillRunTrace } from "./skill-run-result.js";
import {
  validateSkillRunnerOptions,
  type SkillRunnerOptions,
  type SkillRunnerSettings,
} from "./skill-runner-options.js";
import { conversationOf, loadedSkillsIn, type RunSignal, type TextMessage } from "./text-conversation.js";
import { renderTextProtocolPrompt, TEXT_PROTOCOL_READ_HINT, type TextProtocolPrompt } from "./text-protocol-prompt.js";

export type { SkillRunnerOptions } from "./skill-runner-options.js";
export type { RunSignal, TextCompletion, TextMessage } from "./text-conversation.js";
export type { SkillRunResult, SkillRunStep, SkillRunTrace } from "./skill-run-result.js";

/** Options of one {@link SkillRunner.run}. */
export interface SkillRunOptions {
  /** Becomes `${CLAUDE_SESSION_ID}` in instructions. */
  sessionId?: string;
  /** Stops the turn: passed to `complete`, checked between steps. */
  signal?: RunSignal;
}

/** Runs turns of the text protocol: see {@link createSkillRunner}. */
export interface SkillRunner {
  /** One user turn: a question, or a conversation whose last message is the user's. */
  run(input: string | readonly TextMessage[], options?: SkillRunOptions): Promise<SkillRunResult>;
  /** Closes the sources' watchers. */
  close(): void;
}

/**
 * Agent Skills for models without tool calling. Each turn, the model gets the
 * `<available_skills>` catalog, fitted to `catalogBudget`, and how to write instructions
 * (`<use_skill>`, `<read_resource>`, `<execute_script>`, `<unload_skill>`, and `<search_skills>`
 * while the catalog is over its budget) in plain text; the runner executes the instructions of
 * every reply through the skill engine, as the tool-calling middleware does, and answers with
 * their results as the next user message, until a reply holds no instruction or
 * `maxIterations` model calls were made.
 *
 * Every instruction of a reply runs, in order, up to `maxInstructionsPerReply`: models write
 * `<use_skill>` and the `<execute_script>` that needs it in one reply. The loaded skills are
 * read from the conversation (the `<skill_content>` and `<skill_unloaded>` results in its user
 * messages), so the runner keeps nothing between turns and serves any number of conversations.
 *
 * @example
 * ```ts
 * const runner = createSkillRunner({ sources: [createMemorySource({ files })], complete });
 * const { text, messages } = await runner.run("Summarise report.pdf");
 * ```
 */
export function createSkillRunner(options: SkillRunnerOptions): SkillRunner {
  const settings = validateSkillRunnerOptions(options);
  const catalog = createCatalog(options.sources);
  const runner: Runner = {
    settings,
    engine: engineFor(options, settings),
    catalog,
    promptFor: promptCache(catalog, options, settings),
  };
  return {
    run: (input, runOptions = {}) => runTurn(runner, input, runOptions),
    close() {
      catalog.close();
    },
  };
}

/** What every turn of one runner shares. */
interface Runner {
  settings: SkillRunnerSettings;
  engine: SkillEngine;
  catalog: Catalog;
  promptFor(snapshot: { skills: readonly SkillMetadata[]; version: string }): Promise<TextProtocolPrompt>;
}

/** The loaded skills during one turn, as instructions change them. */
interface TurnState {
  request(): SkillRequest;
  apply(operations: readonly SkillOperation[]): void;
  loaded(): string[];
}

/** One conversation as the turn goes: every message, and what the model is sent (the system prompt first). */
interface TurnConversation {
  messages: TextMessage[];
  sent: TextMessage[];
  trace: SkillRunTrace;
  prompt: TextProtocolPrompt;
  signal: RunSignal | undefined;
}

async function runTurn(
  runner: Runner,
  input: string | readonly TextMessage[],
  runOptions: SkillRunOptions,
): Promise<SkillRunResult> {
  const messages = conversationOf(input);
  const { signal } = runOptions;
  signal?.throwIfAborted();
  const loaded = loadedSkillsIn(messages, runner.settings.maxLoadedSkills);
  // A thread without a catalog version always gets one, with unloads of skills that left it.
  const refreshed = (await runner.engine.refresh(runner.catalog, { loaded }))!;
  const turn = turnState(
    runner.catalog,
    applySkillOperations(
      { skills: refreshed.skills, catalogVersion: refreshed.version, loaded, resources: {} },
      refreshed.operations,
    ),
    runOptions.sessionId,
  );

  const trace: SkillRunTrace = { systemPrompt: "", steps: [], stopReason: "answer", loaded: [] };
  const invoked = runner.settings.userInvocation ? await invokeUserCommand(runner.engine, turn, messages) : undefined;
  if (invoked) trace.invoked = invoked;
  const [system, history] =
    messages[0]?.role === "system" ? [`${messages[0].content}\n\n`, messages.slice(1)] : ["", messages];
  const prompt = await runner.promptFor(refreshed);
  trace.systemPrompt = system + prompt.text;
  const sent: TextMessage[] = [{ role: "system", content: trace.systemPrompt }, ...history];
  const text = await converse(runner, turn, { messages, sent, trace, prompt, signal });
  trace.loaded = turn.loaded();
  return { text, messages, trace };
}

function turnState(catalog: Catalog, initial: SkillThreadState, sessionId: string | undefined): TurnState {
  let state = initial;
  return {
    request: () => ({
      state,
      sources: async () => catalog.sources,
      ...(sessionId !== undefined ? { sessionId } : {}),
    }),
    apply(operations) {
      state = applySkillOperations(state, operations);
    },
    loaded: () => [...state.loaded],
  };
}

// Model calls until a reply holds no instruction, each reply's instructions answered by their results.
async function converse(runner: Runner, turn: TurnState, conversation: TurnConversation): Promise<string> {
  const { settings, engine } = runner;
  const { messages, sent, trace, prompt, signal } = conversation;
  for (let iteration = 1; ; iteration++) {
    signal?.throwIfAborted();
    const step = await modelStep(settings, sent, signal);
    trace.steps.push(step);
    messages.push({ role: "assistant", content: step.reply });
    sent.push({ role: "assistant", content: step.reply });
    const parsed = parseSkillInstructions(step.reply);
    step.mentioned = parsed.mentioned;
    if (parsed.fabricatedResultAt !== undefined) step.fabricatedResultAt = parsed.fabricatedResultAt;
    if (parsed.instructions.length === 0) return step.reply;
    if (iteration >= settings.maxIterations) {
      trace.stopReason = "max-iterations";
      return maxIterationsText(settings.maxIterations);
    }
    signal?.throwIfAborted();
    const round = await runSkillInstructions(engine, turn.request(), parsed, {
      maxInstructions: settings.maxInstructionsPerReply,
      lastRound: iteration === settings.maxIterations - 1,
      id: `${iteration}`,
      search: prompt.offersSearch,
    });
    turn.apply(round.operations);
    Object.assign(step, { outcomes: round.outcomes, results: round.message, skipped: round.skipped });
    messages.push({ role: "user", content: round.message });
    sent.push({ role: "user", content: round.message });
  }
}

// One model call: its reply, timed.
async function modelStep(
  settings: SkillRunnerSettings,
  sent: readonly TextMessage[],
  signal: RunSignal | undefined,
): Promise<SkillRunStep> {
  const started = performance.now();
  const reply = await settings.complete([...sent], signal ? { signal } : {});
  if (typeof reply !== "string")
    throw new SkillsetError(
      "invalid-reply",
      `createSkillRunner: complete() must resolve to a string, got ${reply === null ? "null" : typeof reply}`,
    );
  return { reply, modelMs: performance.now() - started, outcomes: [], skipped: 0, mentioned: 0 };
}

// A user's `/name args` as the last message: the model gets the rendered skill instead.
async function invokeUserCommand(
  engine: SkillEngine,
  turn: TurnState,
  conversation: TextMessage[],
): Promise<SkillRunTrace["invoked"]> {
  const last = conversation[conversation.length - 1]!;
  if (last.role !== "user") return undefined;
  const { operations, invocations } = await engine.invokeCommands(turn.request(), [last.content]);
  const [invoked] = invocations;
  if (!invoked) return undefined;
  const name = invoked.command.skill.name;
  turn.apply(operations);
  conversation[conversation.length - 1] = {
    role: "user",
    content: invoked.ok ? resultTag("skill_content", { name }, invoked.text) : invoked.text,
  };
  return { skill: name, arguments: invoked.command.arguments, ok: invoked.ok };
}

/** The final text of a turn that used up its model calls. */
function maxIterationsText(maxIterations: number): string {
  return `The turn stopped after ${maxIterations} model call${maxIterations === 1 ? "" : "s"} (maxIterations) without an answer: the last reply still asked for skill instructions, which did not run.`;
}

function engineFor(options: SkillRunnerOptions, settings: SkillRunnerSettings): SkillEngine {
  return createSkillEngine({
    maxLoadedSkills: settings.maxLoadedSkills,
    maxDescriptionLength: settings.maxDescriptionLength,
    resourceReadTool: TEXT_PROTOCOL_READ_HINT,
    // The engine's Markdown catalog is the tool protocol's: this one fits its own XML catalog to
    // the budget and decides from it whether to offer search (engine.search runs either way).
    catalogBudget: false,
    search: { offer: "never" },
    ...(options.executor
      ? {
          scripts: {
            executor: options.executor,
            defaultAllowedCommands: options.defaultAllowedCommands ?? DEFAULT_ALLOWED_COMMANDS,
          },
        }
      : {}),
    ...(options.dynamicContext ? { dynamicContext: options.dynamicContext } : {}),
    ...(options.verifySkill ? { verifySkill: options.verifySkill } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

// The prompt is derived from the catalog only: one rendering per catalog version.
function promptCache(
  catalog: Catalog,
  options: SkillRunnerOptions,
  settings: SkillRunnerSettings,
): Runner["promptFor"] {
  let cached: { version: string; prompt: Promise<TextProtocolPrompt> } | undefined;
  return ({ skills, version }) => {
    if (cached?.version !== version) {
      const prompt = renderTextProtocolPrompt(skills, {
        maxDescriptionLength: settings.maxDescriptionLength,
        scripts: options.executor !== undefined,
        maxLoadedSkills: settings.maxLoadedSkills,
        catalogBudget: settings.catalogBudget,
        ...(options.catalogPriority ? { catalogPriority: options.catalogPriority } : {}),
        sourceOrder: catalog.sources.map((source) => source.id),
        searchSkills: settings.searchSkills,
      });
      cached = { version, prompt };
    }
    return cached.prompt;
  };
}
