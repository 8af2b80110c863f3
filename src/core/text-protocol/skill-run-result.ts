import type { InstructionOutcome } from "./run-instructions.js";
import type { TextMessage } from "./text-conversation.js";

// What one turn of the skill runner gives back: the answer, the conversation, and its trace.

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
