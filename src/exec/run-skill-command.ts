import { isCommandAllowed } from "./command-allow-list.js";
import { withoutControlCharacters } from "./control-characters.js";
import type { DynamicCommandRunner } from "./dynamic-command.js";
import { parseCommand } from "./parse-command.js";
import type { ScriptExecutor, ScriptResult } from "./script-executor.js";

/** What {@link runSkillCommand} needs: the command and the skill it runs for. */
export interface SkillCommandInput {
  /** One program with arguments, as the model or the skill wrote it; no shell is involved. */
  command: string;
  /** The skill's folder: the working directory. */
  skillDir: string;
  /** The skill's `allowed-tools`, or the default allow-list when it declares none. */
  allowedCommands: readonly string[];
  executor: ScriptExecutor;
  /** Names the skill in refusals. */
  skillName?: string;
  /** Overrides the executor's timeout for this run. */
  timeoutMs?: number;
  /** Written to the command's standard input (e.g. a hook's event). */
  stdin?: string;
}

/** A refusal with its reason, or the run's result. */
export type SkillCommandOutcome = { ok: false; reason: string } | { ok: true; argv: string[]; result: ScriptResult };

/**
 * The one place that decides about and runs a skill's command (for `run_skill_script` and for
 * dynamic context): the command is split without a shell (`parseCommand` refuses shell syntax
 * and paths out of the folder), checked against `allowedCommands` (`isCommandAllowed`), and run
 * by the executor in the skill's folder. Refusals name the reason, the program and the allowed
 * list; nothing runs then. An exception from the executor is passed on.
 */
export async function runSkillCommand(input: SkillCommandInput): Promise<SkillCommandOutcome> {
  const parsed = parseCommand(input.command);
  if (!parsed.ok) return parsed;
  if (!isCommandAllowed(parsed.argv, input.allowedCommands)) {
    const skill = input.skillName === undefined ? "" : ` for skill '${input.skillName}'`;
    return {
      ok: false,
      reason: `'${parsed.argv[0]}' is not allowed${skill} (allowed: ${input.allowedCommands.join(", ") || "nothing"})`,
    };
  }
  const result = await input.executor.run({
    argv: parsed.argv,
    cwd: input.skillDir,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
  });
  return { ok: true, argv: parsed.argv, result };
}

const MAX_STDERR_IN_REASON = 1000;

/**
 * A runner for `renderInstructions`' dynamic context that goes through {@link runSkillCommand}:
 * a refusal becomes `refused: <reason>`; a run that exits with a code other than 0, is killed or
 * times out is a failure (`ran: true`) that quotes the start of its stderr; otherwise the output
 * is stdout (stderr is dropped, as progress messages go there), with a note when it was cut.
 */
export function createSkillCommandRunner(input: Omit<SkillCommandInput, "command">): DynamicCommandRunner {
  return async (command) => {
    const outcome = await runSkillCommand({ ...input, command });
    if (!outcome.ok) return { ok: false, reason: `refused: ${outcome.reason}` };
    const { result } = outcome;
    const stderr = withoutControlCharacters(result.stderr).trim();
    const detail =
      stderr === ""
        ? ""
        : `: ${stderr.length > MAX_STDERR_IN_REASON ? `${stderr.slice(0, MAX_STDERR_IN_REASON)}…` : stderr}`;
    if (result.timedOut)
      return { ok: false, ran: true, reason: `timed out after ${Math.round(result.durationMs)} ms and was killed` };
    if (result.killedReason !== undefined)
      return { ok: false, ran: true, reason: `it was killed: ${result.killedReason}` };
    if (result.exitCode !== 0)
      return {
        ok: false,
        ran: true,
        reason: `${result.exitCode === null ? `killed by ${result.signal ?? "a signal"}` : `exited with code ${result.exitCode}`}${detail}`,
      };
    return {
      ok: true,
      output: result.stdoutTruncated ? `${result.stdout}\n[output cut by the executor's limit]` : result.stdout,
    };
  };
}
