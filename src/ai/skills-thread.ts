import type { ModelMessage, PrepareStepFunction, SystemModelMessage, ToolSet } from "ai";
import { SkillsetError } from "../errors/skillset-error.js";
import { disclosedTools } from "../core/tools/included-tools.js";
import { SEARCH_SKILLS } from "../core/tools/skill-tool-definitions.js";
import { applySkillOperations, type SkillEngine, type SkillRequest } from "../core/engine/skill-engine.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../core/skill-source.js";
import type { SkillStateStore, StoredSkillState } from "./skill-state-store.js";
import { createSkillTools, type SkillsStep, type SkillToolsIncluded } from "./skill-tools.js";
import { firstText, skillsInTranscript, visibleTexts, type LoadedSkillsState } from "./transcript-skills.js";

/** A system prompt as the AI SDK takes it (`system`, or `instructions` in AI SDK 7 and agents). */
export type SkillsInstructions = string | SystemModelMessage | SystemModelMessage[];

/** Options of {@link SkillsThread.prepareStep}. */
export interface PrepareStepOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * Your system prompt; the skills section goes after it. AI SDK 7 shows `prepareStep` the
   * call's own `instructions`, so there you may leave this out. AI SDK 6 does not, and the
   * skills section replaces the step's system prompt, so pass it here (`""` when you have none).
   */
  instructions?: SkillsInstructions;
  /**
   * Every tool of the call (yours and the skill tools). Given, the returned `activeTools` leave
   * out the skill tools that are not on offer in a step; left out, every tool stays active.
   */
  tools?: TOOLS;
}

/**
 * Skills for one conversation. The loaded skills are derived from the messages (or kept in the
 * store of `createSkills`), so the same object serves every request of the thread, and nothing
 * of the thread lives in it.
 */
export interface SkillsThread {
  /** `load_skill`, `unload_skill`, `search_skills`, and `read_skill_resource` / `run_skill_script` when enabled. Spread them into your tools. */
  readonly tools: ToolSet;
  /**
   * A `prepareStep` for `generateText`, `streamText` or `ToolLoopAgent`: each step, it adds the
   * skills catalog and the loaded skills after your system prompt (the stable catalog first, so
   * provider prompt caches keep the prefix).
   */
  prepareStep<TOOLS extends ToolSet = ToolSet>(options?: PrepareStepOptions<TOOLS>): PrepareStepFunction<TOOLS>;
  /**
   * Turns `/name args` in the user's latest messages into the skill's rendered instructions, as
   * Claude Code does: pass the result to the model, and keep it as the conversation, since the
   * rendered messages are where the invocation is recorded. Anything else passes through as it is.
   */
  prepareMessages(messages: ModelMessage[]): Promise<ModelMessage[]>;
  /** The skills loaded after these messages (or in the store), in load order: e.g. for a UI. */
  loadedSkills(messages?: readonly ModelMessage[]): Promise<string[]>;
}

/** The current catalog, as every thread reads it. */
export interface CatalogNow {
  skills: readonly SkillMetadata[];
  version: string;
  skill(name: string): SkillMetadata | undefined;
}

/** What threads share: the engine and the catalog, both derived from sources only. */
export interface SkillsHost {
  engine: SkillEngine;
  catalog(): Promise<CatalogNow>;
  sources(): Promise<readonly SkillSource[]>;
  include: SkillToolsIncluded;
  store?: SkillStateStore;
}

/** A thread of {@link SkillsHost}: `id` names it in the store and becomes `${CLAUDE_SESSION_ID}`. */
export function createSkillsThread(host: SkillsHost, id: string | undefined): SkillsThread {
  const state = threadState(host, id);
  return {
    tools: createSkillTools({ engine: host.engine, step: state.stepOf }, host.include),
    prepareStep<TOOLS extends ToolSet = ToolSet>(options?: PrepareStepOptions<TOOLS>): PrepareStepFunction<TOOLS> {
      return stepPreparer(host, state, options);
    },
    prepareMessages: (messages) => invokeCommands(host, state, messages),
    async loadedSkills(messages = []) {
      return [...(await state.requestFor(messages)).state.loaded];
    },
  };
}

/** How one thread reads and keeps its loaded skills. */
interface ThreadState {
  /** The engine's request for the thread as of these messages (or the store). */
  requestFor(messages: readonly unknown[]): Promise<SkillRequest>;
  /** The step these messages start, shared by its `prepareStep` and tool calls. */
  stepOf(messages: readonly unknown[]): SkillsStep;
  /** Writes the state to the store. */
  save(state: LoadedSkillsState): Promise<LoadedSkillsState>;
}

function threadState(host: SkillsHost, id: string | undefined): ThreadState {
  const { engine, store } = host;
  // Keyed by the messages array the AI SDK hands a step's prepareStep and tool calls.
  const steps = new WeakMap<object, SkillsStep>();

  async function requestFor(messages: readonly unknown[]): Promise<SkillRequest> {
    const catalog = await host.catalog();
    const saved = store
      ? await read(store)
      : skillsInTranscript(messages, { skill: catalog.skill, maxLoaded: engine.maxLoaded });
    return {
      state: {
        skills: catalog.skills,
        catalogVersion: catalog.version,
        loaded: saved.loaded.filter((name) => catalog.skill(name)),
        resources: saved.resources,
      },
      sources: host.sources,
      ...(id !== undefined ? { sessionId: id } : {}),
    };
  }

  async function read(from: SkillStateStore): Promise<LoadedSkillsState> {
    if (id === undefined)
      throw new SkillsetError(
        "invalid-options",
        "createSkills: a store keeps loaded skills by thread; use skills.thread(threadId) for its tools, prepareStep and prepareMessages",
      );
    const saved = (await from.get(id)) as Partial<StoredSkillState> | undefined;
    return { loaded: Array.isArray(saved?.loaded) ? saved.loaded : [], resources: saved?.resources ?? {} };
  }

  async function save(state: LoadedSkillsState): Promise<LoadedSkillsState> {
    await store!.set(id!, {
      loaded: [...state.loaded],
      resources: { ...state.resources } as StoredSkillState["resources"],
    });
    return state;
  }

  function stepOf(messages: readonly unknown[]): SkillsStep {
    let step = steps.get(messages);
    if (step) return step;
    const request = requestFor(messages);
    // Writes of one step go one after another, each on the state the one before left.
    let written: Promise<LoadedSkillsState> = request.then((ready) => ready.state);
    step = {
      request,
      calls: [],
      record: async (operations) => {
        if (!store || operations.length === 0) return;
        written = written.then(async (state) => save(applySkillOperations(state, operations)));
        await written;
      },
    };
    steps.set(messages, step);
    return step;
  }

  return { requestFor, stepOf, save };
}

// Each step: the skills section after the system prompt, and the tools on offer.
function stepPreparer<TOOLS extends ToolSet>(
  host: SkillsHost,
  thread: ThreadState,
  options: PrepareStepOptions<TOOLS> | undefined,
): PrepareStepFunction<TOOLS> {
  const { engine, store } = host;
  const ownInstructions = options !== undefined && "instructions" in options;
  const prepare = async (step: { messages: ModelMessage[]; initialInstructions?: SkillsInstructions }) => {
    const base = ownInstructions
      ? options.instructions
      : "initialInstructions" in step
        ? step.initialInstructions
        : missingInstructions();
    const request = await thread.stepOf(step.messages).request;
    // Derived from the messages, a loaded skill's instructions are in them by definition; a
    // store can outlive them (pruned, summarized), and then the engine re-attaches them.
    const section = await engine.systemPrompt(request, store ? () => visibleTexts(step.messages) : undefined);
    const instructions = withSection(base, section);
    // AI SDK 6 reads `system`, 7 reads `instructions`.
    const result: Record<string, unknown> = { system: instructions, instructions };
    const active = options?.tools ? await activeTools(host, request, options.tools) : undefined;
    if (active) result.activeTools = active;
    return result;
  };
  return prepare as unknown as PrepareStepFunction<TOOLS>;
}

// The tools on offer in a step, in order: the call's own tools (without `search_skills` while
// the catalog fits its budget), then the tools skills bring, as the loaded skills disclose them,
// so a load or unload changes only the end of the list. `undefined`: every tool.
async function activeTools(host: SkillsHost, request: SkillRequest, tools: ToolSet): Promise<string[] | undefined> {
  const { engine } = host;
  const brought = host.include.skillTools;
  const withheld: string[] =
    host.include.search === "auto" && !(await engine.offersSearch(request)) ? [SEARCH_SKILLS.name] : [];
  if (withheld.length === 0 && Object.keys(brought).length === 0) return undefined;
  const own = Object.keys(tools).filter((name) => !withheld.includes(name) && !(name in brought));
  const disclosed = disclosedTools(await engine.loadedSkills(request)).filter(
    (name) => name in brought && name in tools,
  );
  return [...own, ...disclosed];
}

// A user's `/name args` in the latest user messages, rendered in their place.
async function invokeCommands(
  host: SkillsHost,
  thread: ThreadState,
  messages: ModelMessage[],
): Promise<ModelMessage[]> {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role === "user") first--;
  if (first === messages.length) return messages;
  const request = await thread.requestFor(messages);
  const texts = messages.slice(first).map((message) => firstText(message.content));
  const { state, operations, invocations } = await host.engine.invokeCommands(request, texts);
  const prepared = [...messages];
  for (const { at, text } of invocations)
    prepared[first + at] = {
      ...messages[first + at]!,
      content: withFirstText(messages[first + at]!.content, text),
    } as ModelMessage;
  if (host.store && operations.length > 0) await thread.save(state);
  return prepared;
}

/** The system prompt with the skills section after it; system messages stay as they are, for prompt caching. */
function withSection(base: SkillsInstructions | undefined, section: string): SkillsInstructions {
  if (base === undefined || base === "") return section;
  if (typeof base === "string") return base + "\n\n" + section;
  return [...(Array.isArray(base) ? base : [base]), { role: "system", content: section }];
}

function missingInstructions(): never {
  throw new SkillsetError(
    "invalid-options",
    'skills.prepareStep(): AI SDK 6 does not show prepareStep the system prompt, which the skills section replaces. Pass it to prepareStep instead: skills.prepareStep({ instructions: system }) (or { instructions: "" } when there is none).',
  );
}

function withFirstText(content: unknown, text: string): unknown {
  if (typeof content === "string") return text;
  let done = false;
  return (content as Array<{ type?: string }>).map((part) => {
    if (done || part.type !== "text") return part;
    done = true;
    return { ...part, text };
  });
}
