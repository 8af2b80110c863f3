// The contract between rendering (core) and running (exec) of dynamic-context commands. It is
// declared here, in the lowest layer, so that exec can implement it without importing core.

/** What running one dynamic-context command gave: its output, or why there is none. */
export type DynamicCommandResult =
  | { ok: true; output: string }
  /** `ran: true` when the command ran but failed (exit code, timeout); otherwise it was not run. */
  | { ok: false; reason: string; ran?: boolean };

/** Decides about and runs one dynamic-context command, exactly as the skill wrote it. */
export type DynamicCommandRunner = (command: string) => Promise<DynamicCommandResult>;
