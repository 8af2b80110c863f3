import {
  applySkillOperations,
  type SkillEngine,
  type SkillRequest,
  type SkillThreadState,
} from "../engine/skill-engine.js";
import type { SkillsLogEntry } from "../skill-events.js";
import { skillDirectory } from "../skill-file/skill-metadata.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import { engineResult, errorTagOf, INSTRUCTION_FORMS, resultTag, resultsMessage } from "./format-results.js";
import type { ParsedReply, SkillInstruction } from "./parse-instructions.js";

/** One instruction, run, with the result the model reads. */
export interface InstructionOutcome {
  instruction: SkillInstruction;
  /** False for an error result, and for a script that exited with a code other than 0. */
  ok: boolean;
  /** The result tag, as it appears in the results message. */
  result: string;
  /** The changes to the loaded skills, already applied to the next instruction's state. */
  operations: SkillOperation[];
  durationMs: number;
}

/** A reply's instructions, run: the outcomes, the message that answers the reply, the new state. */
export interface InstructionRound {
  outcomes: InstructionOutcome[];
  /** The user message with every result, in the reply's order, and notes. */
  message: string;
  /** Every operation of the round, in order, for hosts that keep the state elsewhere. */
  operations: SkillOperation[];
  /** The thread's state after the round. */
  state: SkillThreadState;
  /** Instructions beyond `maxInstructions`, not run. */
  skipped: number;
}

/** Options of {@link runSkillInstructions}. */
export interface RunInstructionsOptions {
  /** At most this many instructions of one reply run, in order; the message says how many did not. */
  maxInstructions: number;
  /** Tells the model, in the message, that its next reply must answer. */
  lastRound?: boolean;
  /** Prefix of the call ids the engine sees, unique within the thread. */
  id: string;
  /**
   * Whether `<search_skills>` runs: pass the prompt's `offersSearch`. Otherwise it gets an error
   * that says to choose from the catalog. @default false
   */
  search?: boolean;
}

/**
 * Runs a reply's instructions through the engine, one after the other, each on the state the
 * previous one left (so `<use_skill>` then `<execute_script>` in one reply works), and builds the
 * message that answers the reply. Loading, the budget, arguments, resource confinement, the
 * executor and the `allowed-tools` allow-list are the engine's, exactly as for tool calls.
 * Nothing throws for the model's sake: every failure is an error result with a reason.
 */
export async function runSkillInstructions(
  engine: SkillEngine,
  request: SkillRequest,
  parsed: ParsedReply,
  options: RunInstructionsOptions,
): Promise<InstructionRound> {
  let state = request.state;
  const outcomes: InstructionOutcome[] = [];
  const operations: SkillOperation[] = [];
  const runnable = parsed.instructions.slice(0, options.maxInstructions);
  for (const [index, instruction] of runnable.entries()) {
    const started = performance.now();
    const outcome = await runInstruction(
      engine,
      { ...request, state },
      instruction,
      `${options.id}-${index}`,
      options.search ?? false,
    );
    if (outcome.operations.length > 0) {
      state = applySkillOperations(state, outcome.operations);
      operations.push(...outcome.operations);
    }
    outcomes.push({ instruction, ...outcome, durationMs: performance.now() - started });
  }
  const skipped = parsed.instructions.length - runnable.length;
  const message = resultsMessage(
    outcomes.map((outcome) => outcome.result),
    {
      skipped,
      maxInstructions: options.maxInstructions,
      fabricated: parsed.fabricatedResultAt !== undefined,
      lastRound: options.lastRound ?? false,
    },
  );
  return { outcomes, message, operations, state, skipped };
}

type Outcome = Pick<InstructionOutcome, "ok" | "result" | "operations">;

async function runInstruction(
  engine: SkillEngine,
  request: SkillRequest,
  instruction: SkillInstruction,
  id: string,
  search: boolean,
): Promise<Outcome> {
  try {
    return await dispatch(engine, request, instruction, id, search);
  } catch (error) {
    // An executor or a source that throws: the model gets the reason, the loop goes on.
    const tag = instruction.kind === "malformed" ? instruction.tag : instruction.kind;
    return failed(
      resultTag(
        errorTagOf(tag),
        attributesOf(instruction),
        `The instruction failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

// What identifies an instruction's result: the skill, and the path of a resource.
function attributesOf(instruction: SkillInstruction): Record<string, string> {
  switch (instruction.kind) {
    case "malformed":
      return {};
    case "use_skill":
    case "unload_skill":
      return { name: instruction.skill };
    case "read_resource":
      return { skill: instruction.skill, path: instruction.path };
    case "execute_script":
      return { skill: instruction.skill };
    case "search_skills":
      return { query: instruction.query };
  }
}

async function dispatch(
  engine: SkillEngine,
  request: SkillRequest,
  instruction: SkillInstruction,
  id: string,
  search: boolean,
): Promise<Outcome> {
  switch (instruction.kind) {
    case "malformed":
      return failed(
        resultTag(
          errorTagOf(instruction.tag),
          {},
          "",
          `Your instruction could not be read: ${instruction.reason}. Write it as ${INSTRUCTION_FORMS[instruction.tag]}.`,
        ),
      );
    case "use_skill": {
      const { skill } = instruction;
      // An unknown name, told by the engine's own `skill_refused` event: search may find the skill.
      let notFound = false;
      const emit = (entry: SkillsLogEntry) => {
        if (entry.event === "skill_refused" && entry.reason === "not-found") notFound = true;
        request.emit?.(entry);
      };
      const step = await engine.load(
        { ...request, emit },
        { skill, id, ...(instruction.arguments !== undefined ? { arguments: instruction.arguments } : {}) },
      );
      if (step.ok)
        return {
          ok: true,
          result: resultTag("skill_content", { name: skill }, step.text),
          operations: step.operations,
        };
      return failed(
        engineResult(
          "skill_error",
          { name: skill },
          step.text,
          notFound && search ? ` Find other skills with ${INSTRUCTION_FORMS.search_skills}.` : "",
        ),
      );
    }
    case "unload_skill": {
      const { skill } = instruction;
      const step = engine.unload(request, { skill, id });
      return step.ok
        ? { ok: true, result: engineResult("skill_unloaded", { name: skill }, step.text), operations: step.operations }
        : failed(engineResult("skill_error", { name: skill }, step.text));
    }
    case "read_resource": {
      const { skill, offset, limit } = instruction;
      const path = relativeToSkill(request.state, skill, instruction.path);
      const reply = await engine.readResource(request, {
        skill,
        path,
        ...(offset !== undefined ? { offset } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      return reply.ok
        ? { ok: true, result: resultTag("resource_content", { skill, path }, reply.text), operations: [] }
        : failed(engineResult("resource_error", { skill, path }, reply.text));
    }
    case "execute_script": {
      const { skill, command } = instruction;
      // The exit code comes from the engine's own `script_ran` event for this very request.
      let ran: SkillsLogEntry | undefined;
      const emit = (entry: SkillsLogEntry) => {
        if (entry.event === "script_ran") ran = entry;
        request.emit?.(entry);
      };
      const reply = await engine.runScript({ ...request, emit }, { skill, command });
      if (!ran) return failed(engineResult("script_error", { skill }, reply.text));
      const exitCode = typeof ran.exitCode === "number" ? ran.exitCode : "none";
      return {
        ok: reply.ok,
        result: resultTag("script_result", { skill, exit_code: exitCode }, reply.text),
        operations: [],
      };
    }
    case "search_skills": {
      const { query, limit } = instruction;
      if (!search)
        return failed(
          resultTag(
            "skill_error",
            { query },
            "Skill search is not offered here: choose a skill from <available_skills>.",
          ),
        );
      const reply = await engine.search(request, { query, ...(limit !== undefined ? { limit } : {}) });
      return reply.ok
        ? { ok: true, result: engineResult("search_results", { query }, reply.text), operations: [] }
        : failed(engineResult("skill_error", { query }, reply.text));
    }
  }
}

function failed(result: string): Outcome {
  return { ok: false, result, operations: [] };
}

// The catalog shows each skill's location, so models also give a resource's full path; the rest
// of it is checked by the engine like any relative path.
function relativeToSkill(state: SkillThreadState, skill: string, path: string): string {
  const entry = state.skills?.find((candidate) => candidate.name === skill);
  const folder = entry ? `${skillDirectory(entry)}/` : undefined;
  return folder && path.startsWith(folder) ? path.slice(folder.length) : path;
}
