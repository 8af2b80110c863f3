import { createCatalog } from "../catalog.js";
import { SkillsetError } from "../errors.js";
import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET, MIN_CATALOG_BUDGET } from "../render-catalog.js";
import { applySkillOperations, createSkillEngine, type SkillRequest, type SkillThreadState } from "../skill-engine.js";
import type { SkillsLogger } from "../skill-events.js";
import type { SkillMetadata } from "../skill-metadata.js";
import type { SkillOperation } from "../skill-operations.js";
import type { SkillSource } from "../skill-source.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../../exec/command-allow-list.js";
import type { ScriptExecutor } from "../../exec/script-executor.js";
import { resultTag } from "./format-results.js";
import { parseSkillInstructions } from "./parse-instructions.js";
import { runSkillInstructions, type InstructionOutcome } from "./run-instructions.js";
import { renderTextProtocolPrompt, TEXT_PROTOCOL_READ_HINT, type TextProtocolPrompt } from "./text-protocol-prompt.js";

/** One message of a text conversation, as chat APIs take them. */
export interface TextMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * A text model: the conversation in, the reply's text out. Any chat or completion API fits;
 * `createChatModelComplete` (`skillset/langchain`) makes one from a LangChain chat model.
 */
export type TextCompletion = (messages: TextMessage[], options: { signal?: RunSignal }) => Promise<string>;

/**
 * An `AbortSignal` as the runner uses it. Declared here so the core's types need neither the DOM
 * nor Node's; any `AbortSignal` fits.
 */
export interface RunSignal {
  readonly aborted: boolean;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Options of {@link createSkillRunner}. */
export interface SkillRunnerOptions {
  /** Where skills come from, lowest precedence first. */
  sources: readonly SkillSource[];
  /** The model. */
  complete: TextCompletion;
  /** Runs `<execute_script>`, e.g. `createLocalExecutor()` from `skillset/node`; without it, scripts are refused. */
  executor?: ScriptExecutor;
  /** Commands a skill that declares no `allowed-tools` may run. @default ["scripts/*"] */
  defaultAllowedCommands?: readonly string[];
  /** Model calls per turn, at least 1: when the last reply still asks for instructions, the turn stops and says so. @default 10 */
  maxIterations?: number;
  /** Instructions of one reply that run, in order; the results message says how many did not. @default 10 */
  maxInstructionsPerReply?: number;
  /** How many skills may be loaded at once. @default 10 */
  maxLoadedSkills?: number;
  /** Longest description in the catalog; loading a skill shows the whole one. @default 250 */
  maxDescriptionLength?: number;
  /**
   * Most tokens (o200k_base, at least 500) the `<available_skills>` catalog may take, as the
   * middleware's `catalogBudget`: over it, descriptions are shortened, then skills named only,
   * then counted, and `<search_skills>` finds them. `false`: no limit. @default 5000
   */
  catalogBudget?: number | false;
  /** Skills that keep their catalog entries first when the catalog is over its budget, most important first. */
  catalogPriority?: readonly string[];
  /** When `<search_skills>` is offered: `"auto"` while the catalog is over its budget, `true` always, `false` never. @default "auto" */
  searchSkills?: "auto" | boolean;
  /** Runs the `` !`command` `` blocks of a skill's instructions on load, under the script rules. Off unless given. */
  dynamicContext?: { executor: ScriptExecutor; defaultAllowedCommands?: readonly string[] };
  /** A user's message that starts with `/<skill-name>` invokes that skill, as in the middleware. @default true */
  userInvocation?: boolean;
  /** Receives structured log entries; nothing is logged without it. */
  logger?: SkillsLogger;
}

/** Options of one {@link SkillRunner.run}. */
export interface SkillRunOptions {
  /** Becomes `${CLAUDE_SESSION_ID}` in instructions. */
  sessionId?: string;
  /** Stops the turn: passed to `complete`, checked between steps. */
  signal?: RunSignal;
}

/** One model call of a turn and what the runner did with its reply. */
export interface SkillRunStep {
  /** The model's reply, as written. */
  reply: string;
  modelMs: number;
  /** The instructions that ran (or were answered with an error), in order, with their results. */
  outcomes: InstructionOutcome[];
  /** The user message that answered the reply, when it held instructions that ran. */
  results?: string;
  /** Instructions beyond `maxInstructionsPerReply`, not run. */
  skipped: number;
  /** Instructions only talked about (inside inline code in prose), not run. */
  mentioned: number;
  /** Where a result tag the model wrote itself began; the rest of the reply was not read. */
  fabricatedResultAt?: number;
}

/** What a turn produced. */
export interface SkillRunResult {
  /** The final answer; when `maxIterations` ran out, a sentence that says so. */
  text: string;
  /** The conversation: the input, then every reply and results message; pass it back, with the next user message, for the next turn. */
  messages: TextMessage[];
  trace: SkillRunTrace;
}

/** A structured record of a turn. */
export interface SkillRunTrace {
  /** The system message sent on every call: the input's own system message, if any, then the skills prompt. */
  systemPrompt: string;
  /** A user's `/name args` at the end of the input, and whether the skill could be invoked. */
  invoked?: { skill: string; arguments: string; ok: boolean };
  steps: SkillRunStep[];
  /** `"answer"`: the last reply held no instruction; `"max-iterations"`: it did, and no call was left. */
  stopReason: "answer" | "max-iterations";
  /** The skills loaded at the end of the turn. */
  loaded: string[];
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
  const settings = validated(options);
  const engine = createSkillEngine({
    maxLoadedSkills: settings.maxLoadedSkills,
    maxDescriptionLength: settings.maxDescriptionLength,
    resourceReadTool: TEXT_PROTOCOL_READ_HINT,
    // The engine's Markdown catalog is the tool protocol's: this one fits its own XML catalog to
    // the budget and decides from it whether to offer search (engine.search runs either way).
    catalogBudget: false,
    search: { offer: "never" },
    ...(options.executor ? { scripts: { executor: options.executor, defaultAllowedCommands: options.defaultAllowedCommands ?? DEFAULT_ALLOWED_COMMANDS } } : {}),
    ...(options.dynamicContext ? { dynamicContext: options.dynamicContext } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const catalog = createCatalog(options.sources);
  // Derived from the catalog only: one rendering per catalog version.
  let cached: { version: string; prompt: Promise<TextProtocolPrompt> } | undefined;
  const promptFor = ({ skills, version }: { skills: readonly SkillMetadata[]; version: string }) => {
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

  return {
    async run(input, runOptions = {}) {
      const messages = conversationOf(input);
      const { signal } = runOptions;
      signal?.throwIfAborted();
      const loaded = loadedIn(messages, settings.maxLoadedSkills);
      // A thread without a catalog version always gets one, with unloads of skills that left it.
      const refreshed = (await engine.refresh(catalog, { loaded }))!;
      let state: SkillThreadState = applySkillOperations({ skills: refreshed.skills, catalogVersion: refreshed.version, loaded, resources: {} }, refreshed.operations);
      const request = (): SkillRequest => ({ state, sources: async () => catalog.sources, ...(runOptions.sessionId !== undefined ? { sessionId: runOptions.sessionId } : {}) });
      const apply = (operations: readonly SkillOperation[]) => {
        state = applySkillOperations(state, operations);
      };

      const trace: SkillRunTrace = { systemPrompt: "", steps: [], stopReason: "answer", loaded: [] };
      const invoked = settings.userInvocation ? await invokeUserCommand(messages) : undefined;
      if (invoked) trace.invoked = invoked;
      const [system, history] = messages[0]?.role === "system" ? [`${messages[0].content}\n\n`, messages.slice(1)] : ["", messages];
      const prompt = await promptFor(refreshed);
      trace.systemPrompt = system + prompt.text;
      const sent: TextMessage[] = [{ role: "system", content: trace.systemPrompt }, ...history];

      let text = "";
      for (let iteration = 1; ; iteration++) {
        signal?.throwIfAborted();
        const started = performance.now();
        const reply = await settings.complete([...sent], signal ? { signal } : {});
        if (typeof reply !== "string") throw new SkillsetError("invalid-reply", `createSkillRunner: complete() must resolve to a string, got ${reply === null ? "null" : typeof reply}`);
        const step: SkillRunStep = { reply, modelMs: performance.now() - started, outcomes: [], skipped: 0, mentioned: 0 };
        trace.steps.push(step);
        messages.push({ role: "assistant", content: reply });
        sent.push({ role: "assistant", content: reply });
        const parsed = parseSkillInstructions(reply);
        step.mentioned = parsed.mentioned;
        if (parsed.fabricatedResultAt !== undefined) step.fabricatedResultAt = parsed.fabricatedResultAt;
        if (parsed.instructions.length === 0) {
          text = reply;
          break;
        }
        if (iteration >= settings.maxIterations) {
          trace.stopReason = "max-iterations";
          text = `The turn stopped after ${settings.maxIterations} model call${settings.maxIterations === 1 ? "" : "s"} (maxIterations) without an answer: the last reply still asked for skill instructions, which did not run.`;
          break;
        }
        signal?.throwIfAborted();
        const round = await runSkillInstructions(engine, request(), parsed, {
          maxInstructions: settings.maxInstructionsPerReply,
          lastRound: iteration === settings.maxIterations - 1,
          id: `${iteration}`,
          search: prompt.offersSearch,
        });
        apply(round.operations);
        Object.assign(step, { outcomes: round.outcomes, results: round.message, skipped: round.skipped });
        messages.push({ role: "user", content: round.message });
        sent.push({ role: "user", content: round.message });
      }
      trace.loaded = [...state.loaded];
      return { text, messages, trace };

      // A user's `/name args` as the last message: the model gets the rendered skill instead.
      async function invokeUserCommand(conversation: TextMessage[]): Promise<SkillRunTrace["invoked"]> {
        const last = conversation[conversation.length - 1]!;
        if (last.role !== "user") return undefined;
        const { operations, invocations } = await engine.invokeCommands(request(), [last.content]);
        const [invoked] = invocations;
        if (!invoked) return undefined;
        const name = invoked.command.skill.name;
        apply(operations);
        conversation[conversation.length - 1] = { role: "user", content: invoked.ok ? resultTag("skill_content", { name }, invoked.text) : invoked.text };
        return { skill: name, arguments: invoked.command.arguments, ok: invoked.ok };
      }
    },

    close() {
      catalog.close();
    },
  };
}

// `<skill_content name="…">` / `<skill_unloaded name="…">` opening a line of a user message:
// only the runner writes these (inside results, every protocol tag is neutralized).
const LOAD_RECORD = /^<(skill_content|skill_unloaded) name="([^"]*)">/gm;

/**
 * The skills loaded in a conversation, read from the results in its user messages, in load
 * order. A user's invocation evicts the least recently loaded skill when every slot is taken,
 * so only the last `maxLoaded` count.
 */
function loadedIn(messages: readonly TextMessage[], maxLoaded: number): string[] {
  let loaded: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !message.content.includes("<skill_")) continue;
    for (const [, tag, name] of message.content.matchAll(LOAD_RECORD)) {
      const skill = unescapeAttribute(name!);
      loaded = loaded.filter((entry) => entry !== skill);
      if (tag === "skill_content") loaded.push(skill);
    }
  }
  return loaded.slice(-maxLoaded);
}

function unescapeAttribute(value: string): string {
  return value.replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: "<", gt: ">", quot: '"', amp: "&" })[name]!);
}

function conversationOf(input: string | readonly TextMessage[]): TextMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input) || input.length === 0) throw new SkillsetError("invalid-input", "SkillRunner.run: give a question, or a conversation of at least one message");
  input.forEach((message, index) => {
    const valid = typeof message === "object" && message !== null && ["system", "user", "assistant"].includes(message.role) && typeof message.content === "string";
    if (!valid) throw new SkillsetError("invalid-input", `SkillRunner.run: message ${index} must be { role: "system" | "user" | "assistant", content: string }`);
  });
  if (input[input.length - 1]!.role !== "user") throw new SkillsetError("invalid-input", "SkillRunner.run: the conversation's last message must be the user's");
  return input.map((message) => ({ role: message.role, content: message.content }));
}

function validated(options: SkillRunnerOptions) {
  const problems: string[] = [];
  const isSource = (value: unknown) => typeof value === "object" && value !== null && typeof (value as SkillSource).scan === "function";
  if (!Array.isArray(options.sources) || !options.sources.every(isSource)) problems.push("sources must be an array of SkillSource objects");
  if (typeof options.complete !== "function") problems.push("complete must be a function (messages) => Promise<string>");
  const count = (name: keyof SkillRunnerOptions, fallback: number) => {
    const value = options[name] ?? fallback;
    if (!Number.isInteger(value) || (value as number) < 1) problems.push(`${name} must be an integer of at least 1, got ${String(value)}`);
    return value as number;
  };
  const settings = {
    complete: options.complete,
    maxIterations: count("maxIterations", 10),
    maxInstructionsPerReply: count("maxInstructionsPerReply", 10),
    maxLoadedSkills: count("maxLoadedSkills", 10),
    maxDescriptionLength: count("maxDescriptionLength", DEFAULT_MAX_DESCRIPTION_LENGTH),
    userInvocation: options.userInvocation ?? true,
    catalogBudget: options.catalogBudget ?? DEFAULT_CATALOG_BUDGET,
    searchSkills: options.searchSkills ?? "auto",
  };
  const budget = settings.catalogBudget;
  if (budget !== false && !(Number.isInteger(budget) && budget >= MIN_CATALOG_BUDGET)) problems.push(`catalogBudget must be false or an integer of at least ${MIN_CATALOG_BUDGET}, got ${String(budget)}`);
  if (settings.searchSkills !== "auto" && typeof settings.searchSkills !== "boolean") problems.push(`searchSkills must be "auto", true or false, got ${String(settings.searchSkills)}`);
  const priority = options.catalogPriority;
  if (priority !== undefined && !(Array.isArray(priority) && priority.every((name) => typeof name === "string"))) problems.push("catalogPriority must be an array of skill names");
  if (problems.length > 0) throw new SkillsetError("invalid-options", `createSkillRunner: ${problems.join("; ")}`);
  return settings;
}
