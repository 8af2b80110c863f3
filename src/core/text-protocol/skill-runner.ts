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
import { runSkillInstructions, type InstructionOutcome } from "./run-instructions.js";
import {
  validateSkillRunnerOptions,
  type SkillRunnerOptions,
  type SkillRunnerSettings,
} from "./skill-runner-options.js";
import { conversationOf, loadedSkillsIn, type RunSignal, type TextMessage } from "./text-conversation.js";
import { renderTextProtocolPrompt, TEXT_PROTOCOL_READ_HINT, type TextProtocolPrompt } from "./text-protocol-prompt.js";

export type { SkillRunnerOptions } from "./skill-runner-options.js";
export type { RunSignal, TextCompletion, TextMessage } from "./text-conversation.js";

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
  const settings = validateSkillRunnerOptions(options);
  const engine = engineFor(options, settings);
  const catalog = createCatalog(options.sources);
  const promptFor = promptCache(catalog, options, settings);

  return {
    async run(input, runOptions = {}) {
      const messages = conversationOf(input);
      const { signal } = runOptions;
      signal?.throwIfAborted();
      const loaded = loadedSkillsIn(messages, settings.maxLoadedSkills);
      // A thread without a catalog version always gets one, with unloads of skills that left it.
      const refreshed = (await engine.refresh(catalog, { loaded }))!;
      let state: SkillThreadState = applySkillOperations(
        { skills: refreshed.skills, catalogVersion: refreshed.version, loaded, resources: {} },
        refreshed.operations,
      );
      const request = (): SkillRequest => ({
        state,
        sources: async () => catalog.sources,
        ...(runOptions.sessionId !== undefined ? { sessionId: runOptions.sessionId } : {}),
      });
      const apply = (operations: readonly SkillOperation[]) => {
        state = applySkillOperations(state, operations);
      };

      const trace: SkillRunTrace = { systemPrompt: "", steps: [], stopReason: "answer", loaded: [] };
      const invoked = settings.userInvocation ? await invokeUserCommand(messages) : undefined;
      if (invoked) trace.invoked = invoked;
      const [system, history] =
        messages[0]?.role === "system" ? [`${messages[0].content}\n\n`, messages.slice(1)] : ["", messages];
      const prompt = await promptFor(refreshed);
      trace.systemPrompt = system + prompt.text;
      const sent: TextMessage[] = [{ role: "system", content: trace.systemPrompt }, ...history];

      let text = "";
      for (let iteration = 1; ; iteration++) {
        signal?.throwIfAborted();
        const started = performance.now();
        const reply = await settings.complete([...sent], signal ? { signal } : {});
        if (typeof reply !== "string")
          throw new SkillsetError(
            "invalid-reply",
            `createSkillRunner: complete() must resolve to a string, got ${reply === null ? "null" : typeof reply}`,
          );
        const step: SkillRunStep = {
          reply,
          modelMs: performance.now() - started,
          outcomes: [],
          skipped: 0,
          mentioned: 0,
        };
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
          text = maxIterationsText(settings.maxIterations);
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
        conversation[conversation.length - 1] = {
          role: "user",
          content: invoked.ok ? resultTag("skill_content", { name }, invoked.text) : invoked.text,
        };
        return { skill: name, arguments: invoked.command.arguments, ok: invoked.ok };
      }
    },

    close() {
      catalog.close();
    },
  };
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
): (snapshot: { skills: readonly SkillMetadata[]; version: string }) => Promise<TextProtocolPrompt> {
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
