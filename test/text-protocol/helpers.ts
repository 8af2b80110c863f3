// Shared by the text-protocol tests: a model that replays written replies, and an executor
// that records what it was asked to run.
import type { ScriptExecutor, ScriptResult } from "../../src/index.js";
import type { TextCompletion, TextMessage } from "../../src/core/text-protocol/skill-runner.js";

/** A reply, or a function of the conversation so far that writes one. */
export type ScriptedReply = string | ((messages: TextMessage[]) => string);

/**
 * A `complete` that answers with `replies` in order and records every conversation it was sent
 * (a copy, so later calls cannot change it). One call too many fails the test.
 */
export function scriptedComplete(replies: ScriptedReply[]): { complete: TextCompletion; calls: TextMessage[][] } {
  const calls: TextMessage[][] = [];
  const queue = [...replies];
  const complete: TextCompletion = async (messages) => {
    calls.push(messages.map((message) => ({ ...message })));
    const reply = queue.shift();
    if (reply === undefined) throw new Error(`scriptedComplete: no reply left for call ${calls.length}`);
    return typeof reply === "string" ? reply : reply(messages);
  };
  return { complete, calls };
}

/** The last user message of a conversation: the results the runner sent. */
export function lastUserMessage(messages: readonly TextMessage[]): string {
  return messages.findLast((message) => message.role === "user")!.content;
}

/** An executor that records each argv and answers with `result` (exit 0, `ok` on stdout, by default). */
export function recordingExecutor(
  result: Partial<ScriptResult> | ((argv: readonly string[]) => Partial<ScriptResult>) = {},
): ScriptExecutor & { runs: string[][] } {
  const runs: string[][] = [];
  return {
    specificationVersion: "v1",
    runs,
    async run({ argv }) {
      runs.push([...argv]);
      const given = typeof result === "function" ? result(argv) : result;
      return {
        exitCode: 0,
        stdout: "ok\n",
        stderr: "",
        stdoutTruncated: false,
        stderrTruncated: false,
        timedOut: false,
        durationMs: 1,
        ...given,
      };
    },
  };
}
