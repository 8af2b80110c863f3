import { DEFAULT_ALLOWED_COMMANDS } from "../../exec/command-allow-list.js";
import { runSkillCommand } from "../../exec/run-skill-command.js";
import type { ScriptExecutor } from "../../exec/script-executor.js";
import { withoutControlCharacters } from "../text/safe-text.js";
import { emitSkillsEvent, type SkillsLogger } from "../skill-events.js";
import { skillDirectory, type SkillMetadata } from "../skill-file/skill-metadata.js";

/** The Claude Code hook events skills may use here. */
export type SkillHookEvent = "PreToolUse" | "PostToolUse" | "Stop";

/** One command handler of a skill's `hooks:`, flattened. */
export interface SkillHook {
  skill: string;
  event: SkillHookEvent;
  /** A tool-name pattern (`Write|Edit`, `mcp__.*`); empty or `*` matches every tool. */
  matcher: string;
  command: string;
  /** Claude Code's `timeout`, in seconds. */
  timeoutSeconds?: number;
  /** Run at most once per thread. */
  once: boolean;
  /** Names the handler within its skill (`skill/event/group/handler`), e.g. for `once`. */
  key: string;
}

/** What the hooks of one event decided. */
export type SkillHookOutcome =
  { action: "proceed"; notes: string[] } | { action: "block"; reason: string; skill: string };

/** What running hooks needs from the host. */
export interface SkillHookRun {
  executor: ScriptExecutor;
  /** Commands a skill without `allowed-tools` may run as hooks. @default ["scripts/*"] */
  defaultAllowedCommands?: readonly string[];
  logger?: SkillsLogger;
  emit?: SkillsLogger;
  /** Keys of `once` handlers that already ran in this thread (the host keeps them in the thread's state); the run adds to it. */
  ran?: Set<string>;
}

const EVENTS: readonly SkillHookEvent[] = ["PreToolUse", "PostToolUse", "Stop"];
const MAX_REASON = 2000;
const parsed = new WeakMap<SkillMetadata, SkillHook[]>();

/**
 * A skill's `hooks:` in Claude Code's shape (`event → [{ matcher, hooks: [{ type: "command",
 * command, timeout, once }] }]`) as a list of handlers. Events other than those of
 * {@link SkillHookEvent} and handlers other than commands are not run (the validator reports
 * the shape; this reads what it can).
 */
export function skillHooks(skill: SkillMetadata): SkillHook[] {
  let hooks = parsed.get(skill);
  if (hooks) return hooks;
  hooks = [];
  const table = isRecord(skill.hooks) ? skill.hooks : {};
  for (const event of EVENTS) {
    const groups = table[event];
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === "string" ? group.matcher : "";
      group.hooks.forEach((handler: unknown, index) => {
        if (!isRecord(handler) || handler.type !== "command" || typeof handler.command !== "string") return;
        const seconds = positiveNumber(handler.timeout);
        const once = isTrue(handler.once) || isTrue(group.once);
        hooks!.push({
          skill: skill.name,
          event,
          matcher,
          command: handler.command,
          once,
          key: `${skill.name}/${event}/${groupIndex}/${index}`,
          ...(seconds === undefined ? {} : { timeoutSeconds: seconds }),
        });
      });
    });
  }
  parsed.set(skill, hooks);
  return hooks;
}

/** The handlers of the loaded skills for `event` (and, for tool events, this tool), in load order. */
export function matchingHooks(loaded: readonly SkillMetadata[], event: SkillHookEvent, tool?: string): SkillHook[] {
  return loaded.flatMap((skill) =>
    skill.hooks === undefined
      ? []
      : skillHooks(skill).filter(
          (hook) => hook.event === event && (tool === undefined || matcherAllows(hook.matcher, tool)),
        ),
  );
}

/**
 * Runs hooks one after another with the event as JSON on stdin, under the skill's command rules
 * (its `allowed-tools` as allow-list, else the default; no shell; its folder as working
 * directory). Exit 0 proceeds (stdout may be a JSON decision: `{"decision":"block","reason"}`,
 * or `hookSpecificOutput.permissionDecision: "deny"`); exit 2 blocks with stderr as the reason;
 * anything else (refused, failed, timed out) is reported and does not block. The first block wins.
 */
export async function runSkillHooks(
  hooks: readonly SkillHook[],
  loaded: readonly SkillMetadata[],
  input: Record<string, unknown>,
  run: SkillHookRun,
): Promise<SkillHookOutcome> {
  const notes: string[] = [];
  for (const hook of hooks) {
    if (hook.once && run.ran?.has(hook.key)) continue;
    run.ran?.add(hook.key);
    const skill = loaded.find((entry) => entry.name === hook.skill)!;
    const allowed =
      skill.allowedTools.length > 0 ? skill.allowedTools : (run.defaultAllowedCommands ?? DEFAULT_ALLOWED_COMMANDS);
    const stdin = JSON.stringify({ hook_event_name: hook.event, ...input });
    const timeout = hook.timeoutSeconds === undefined ? {} : { timeoutMs: hook.timeoutSeconds * 1000 };
    const fail = (reason: string) => {
      emitSkillsEvent(run.logger, run.emit, {
        level: "warn",
        event: "hook_failed",
        message: `${hook.event} hook of skill '${hook.skill}' (${hook.command}) failed: ${reason}`,
        skill: hook.skill,
        hookEvent: hook.event,
        command: hook.command,
      });
    };
    let outcome;
    try {
      outcome = await runSkillCommand({
        command: hook.command,
        skillDir: skillDirectory(skill),
        allowedCommands: allowed,
        executor: run.executor,
        skillName: hook.skill,
        stdin,
        ...timeout,
      });
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
      continue;
    }
    if (!outcome.ok) {
      fail(`refused: ${outcome.reason}`);
      continue;
    }
    const { result } = outcome;
    const exit = result.timedOut
      ? "timed out"
      : result.killedReason
        ? `killed: ${result.killedReason}`
        : `exit ${result.exitCode ?? result.signal}`;
    if (result.exitCode === 2 && !result.timedOut && !result.killedReason) {
      const reason = clip(result.stderr) || `blocked by a ${hook.event} hook of skill '${hook.skill}'`;
      emitSkillsEvent(run.logger, run.emit, {
        level: "info",
        event: "hook_ran",
        message: `${hook.event} hook of skill '${hook.skill}' blocked: ${reason}`,
        skill: hook.skill,
        hookEvent: hook.event,
        command: hook.command,
        blocked: true,
      });
      return { action: "block", reason, skill: hook.skill };
    }
    if (result.exitCode !== 0 || result.timedOut || result.killedReason) {
      // A killed run's stderr is the shell's noise ("Killed"), not the hook's reason.
      const stderr = result.timedOut || result.killedReason ? "" : clip(result.stderr);
      fail(`${exit}${stderr ? `: ${stderr}` : ""}`);
      continue;
    }
    emitSkillsEvent(run.logger, run.emit, {
      level: "info",
      event: "hook_ran",
      message: `${hook.event} hook of skill '${hook.skill}' ran (${exit})`,
      skill: hook.skill,
      hookEvent: hook.event,
      command: hook.command,
      blocked: false,
    });
    const decision = jsonDecision(result.stdout);
    if (decision.block !== undefined)
      return {
        action: "block",
        reason: decision.block || `blocked by a ${hook.event} hook of skill '${hook.skill}'`,
        skill: hook.skill,
      };
    if (decision.note) notes.push(decision.note);
  }
  return { action: "proceed", notes };
}

// Claude Code's JSON output of a hook that exited 0: a block (`decision: "block"`, or a denied
// permission), or context to pass on (`additionalContext`, `systemMessage`). Plain text is no decision.
function jsonDecision(stdout: string): { block?: string; note?: string } {
  const text = stdout.trim();
  if (!text.startsWith("{")) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(value)) return {};
  const specific = isRecord(value.hookSpecificOutput) ? value.hookSpecificOutput : {};
  if (value.decision === "block") return { block: clip(String(value.reason ?? "")) };
  if (specific.permissionDecision === "deny") return { block: clip(String(specific.permissionDecisionReason ?? "")) };
  if (value.continue === false) return { block: clip(String(value.stopReason ?? "")) };
  const note =
    typeof specific.additionalContext === "string"
      ? specific.additionalContext
      : typeof value.systemMessage === "string"
        ? value.systemMessage
        : undefined;
  return note ? { note: clip(note) } : {};
}

function matcherAllows(matcher: string, tool: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

function clip(text: string): string {
  const clean = withoutControlCharacters(text).trim();
  return clean.length > MAX_REASON ? `${clean.slice(0, MAX_REASON)}…` : clean;
}

// Frontmatter scalars arrive as strings (`timeout: 1` is "1"); a YAML document built elsewhere may hold numbers and booleans.
function positiveNumber(value: unknown): number | undefined {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value)
        ? Number(value)
        : NaN;
  return number > 0 && Number.isFinite(number) ? number : undefined;
}

function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
