import type { SkillReply, SkillRequest } from "./skill-engine-types.js";
import { skillDirectory } from "../skill-file/skill-metadata.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../../exec/command-allow-list.js";
import { runSkillCommand } from "../../exec/run-skill-command.js";
import { formatScriptResult } from "../../exec/script-executor.js";
import { allowedCommandsOf } from "./allowed-commands.js";
import type { EngineContext } from "./engine-context.js";
import { loadedSkillSource } from "./skill-reader.js";
import { verificationRefusal } from "./verify-skill.js";

/**
 * Runs a command in a loaded skill's folder if its allow-list permits it and its source runs
 * commands at all; each run or refusal is an event.
 */
export async function runSkillScript(
  context: EngineContext,
  request: SkillRequest,
  input: { skill: string; command: string },
): Promise<SkillReply> {
  const { skill: name, command } = input;
  const { scripts } = context.options;
  if (!scripts) return { ok: false, text: "Error: Running scripts is not enabled for this agent." };
  const found = await loadedSkillSource(context, request, name);
  if ("error" in found) return { ok: false, text: found.error };
  if (found.source.runsCommands === false) {
    context.emit(request, {
      level: "warn",
      event: "script_refused",
      message: `run_skill_script refused for skill '${name}': its source does not run commands`,
      skill: name,
      command,
    });
    return {
      ok: false,
      text: `Error: Command refused: skill '${name}' comes from a source whose scripts are not run here; read its files instead.`,
    };
  }
  // Checked again: a script changed since the skill was loaded must not run as the reviewed one.
  const refusal = await verificationRefusal(context, request, found.skill, "run");
  if (refusal) return { ok: false, text: refusal };
  const { executor, defaultAllowedCommands = DEFAULT_ALLOWED_COMMANDS } = scripts;
  const outcome = await runSkillCommand({
    command,
    skillDir: skillDirectory(found.skill),
    allowedCommands: allowedCommandsOf(found.skill, defaultAllowedCommands),
    executor,
    skillName: name,
  });
  if (!outcome.ok) {
    context.emit(request, {
      level: "warn",
      event: "script_refused",
      message: `run_skill_script refused for skill '${name}': ${outcome.reason}`,
      skill: name,
      command,
    });
    return { ok: false, text: `Error: Command refused: ${outcome.reason}.` };
  }
  const { result, argv } = outcome;
  const failed = result.timedOut || result.killedReason !== undefined || result.exitCode !== 0;
  context.emit(request, {
    level: failed ? "warn" : "info",
    event: "script_ran",
    message: `Skill '${name}' ran '${argv[0]}': exit ${result.exitCode ?? result.signal}${result.timedOut ? " (timed out)" : ""}`,
    skill: name,
    argv,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: Math.round(result.durationMs),
  });
  return { ok: !failed, text: formatScriptResult(command, result) };
}
