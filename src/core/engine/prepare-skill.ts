import { renderInstructions, type DynamicCommandRunner } from "../instructions/render-instructions.js";
import { splitAtBody } from "../skill-file/skill-document.js";
import type { SkillRequest } from "./skill-engine-types.js";
import { skillDirectory, type SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillOperation } from "../loaded/skill-operations.js";
import { DEFAULT_RESOURCE_LIMITS, discoverResources } from "../resources/skill-resources.js";
import type { SkillSource } from "../skill-source.js";
import { loadResultText } from "../tools/skill-tool-messages.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../../exec/command-allow-list.js";
import { createSkillCommandRunner } from "../../exec/run-skill-command.js";
import { allowedCommandsOf } from "./allowed-commands.js";
import type { EngineContext } from "./engine-context.js";
import { readFailureMessage, readSkillText, sourceOf } from "./skill-reader.js";
import { verificationRefusal } from "./verify-skill.js";

/** A skill ready to load: the text for the model, the load operation, and how many resources it has. */
export interface PreparedSkill {
  content: string;
  operation: SkillOperation;
  resources: number;
}

/**
 * Reads, renders and discovers one skill, the same for a model's load and a user's invocation;
 * a failure is the model-facing error text.
 */
export async function prepareSkill(
  context: EngineContext,
  request: SkillRequest,
  skill: SkillMetadata,
  args: string | undefined,
): Promise<PreparedSkill | { error: string }> {
  const refusal = await verificationRefusal(context, request, skill);
  if (refusal) return { error: refusal };
  let source: SkillSource;
  let text: string;
  try {
    source = await sourceOf(request, skill);
    text = await readSkillText(source, skill);
  } catch (error) {
    const message = readFailureMessage(skill.path, error);
    context.emit(request, { level: "error", event: "skill_read_failed", message, skill: skill.name, path: skill.path });
    return { error: message };
  }
  const { head, body } = splitAtBody(text);
  const runCommand = source.runsCommands === false ? undefined : dynamicRunner(context, request, skill);
  const rendered = await renderInstructions(body, {
    // Argument placeholders are filled only for skills written to take arguments, or when
    // arguments were given: `awk '{print $1}'` in an ordinary skill must stay as written.
    ...(args !== undefined || skill.argumentHint !== undefined || skill.argumentNames ? { arguments: args ?? "" } : {}),
    ...(skill.argumentNames ? { argumentNames: skill.argumentNames } : {}),
    skillDir: skillDirectory(skill),
    ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
    ...(runCommand ? { runCommand } : {}),
  });
  const discovery = await discoverResources(source, skill, DEFAULT_RESOURCE_LIMITS);
  if (discovery.error) {
    context.emit(request, {
      level: "warn",
      event: "resource_discovery_failed",
      message: `Failed to list resources for skill '${skill.name}': ${discovery.error}`,
      skill: skill.name,
    });
  }
  return {
    content: loadResultText(
      skill,
      head + rendered,
      discovery,
      request.fileTools?.read ?? context.readTool,
      context.policy,
      context.skillLocation(skill),
    ),
    operation: {
      kind: "load",
      skill: skill.name,
      resources: discovery.resources,
      ...(discovery.truncated ? { resourcesTruncated: true } : {}),
    },
    resources: discovery.resources.length,
  };
}

// Dynamic context goes through the script rules; each run or refusal is an event.
function dynamicRunner(
  context: EngineContext,
  request: SkillRequest,
  skill: SkillMetadata,
): DynamicCommandRunner | undefined {
  if (!context.options.dynamicContext) return undefined;
  const { executor, defaultAllowedCommands = DEFAULT_ALLOWED_COMMANDS } = context.options.dynamicContext;
  const run = createSkillCommandRunner({
    skillDir: skillDirectory(skill),
    allowedCommands: allowedCommandsOf(skill, defaultAllowedCommands),
    executor,
    skillName: skill.name,
  });
  return async (command) => {
    const result = await run(command);
    const outcome = result.ok ? "ran" : result.ran ? `failed: ${result.reason}` : result.reason;
    context.emit(request, {
      level: result.ok ? "info" : "warn",
      event: "dynamic_context",
      message: `Dynamic context of skill '${skill.name}': \`${command}\` ${outcome}`,
      skill: skill.name,
      command,
      ok: result.ok,
    });
    return result;
  };
}
