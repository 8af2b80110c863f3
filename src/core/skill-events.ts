/** The events skillset reports to a logger (and, from the middleware, as stream events). */
export type SkillsEventName =
  | "skills_discovered"
  | "skill_diagnostic"
  | "skill_loaded"
  | "skill_invoked"
  | "skill_unloaded"
  | "skill_refused"
  | "skill_unverified"
  | "skill_read_failed"
  | "resource_discovery_failed"
  | "skill_restored"
  | "tool_restricted"
  | "script_ran"
  | "script_refused"
  | "code_ran"
  | "dynamic_context"
  | "catalog_over_budget"
  | "skills_searched"
  | "skill_model_unknown"
  | "hook_ran"
  | "hook_failed"
  | "skill_tools_unavailable"
  | "resource_tool_missing"
  | "skills_inherited"
  | "skill_not_inherited"
  | "fork_started"
  | "fork_step"
  | "fork_finished";

/** One structured log entry. */
export interface SkillsLogEntry {
  level: "debug" | "info" | "warn" | "error";
  event: SkillsEventName;
  message: string;
  [field: string]: unknown;
}

/**
 * Receives skillset's structured log entries. skillset logs nothing unless given one; bridge it
 * to your logger, e.g. `(entry) => pino[entry.level](entry, entry.message)`.
 */
export type SkillsLogger = (entry: SkillsLogEntry) => void;

/** Sends an entry to the logger and, unless it is a `debug` entry, to the request's own sink (e.g. a stream). */
export function emitSkillsEvent(
  logger: SkillsLogger | undefined,
  sink: SkillsLogger | undefined,
  entry: SkillsLogEntry,
): void {
  logger?.(entry);
  if (entry.level !== "debug") sink?.(entry);
}
