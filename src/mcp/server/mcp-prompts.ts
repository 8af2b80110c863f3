import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import { getOwn } from "../../core/text/safe-text.js";
import { isUserInvocable } from "../../core/instructions/skill-command.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { McpSkillSession } from "./mcp-session.js";
import { MAX_SKILL_ARGUMENTS_CHARS } from "../../core/tools/skill-tool-definition.js";
import { pageAfter, protocolError, type McpServerContext } from "./server-context.js";

/** The prompt argument of a skill that names no arguments of its own: everything typed after `/name`. */
const ARGUMENTS_PROMPT_ARGUMENT = "arguments";

/**
 * One prompt per skill a user may invoke, named by the skill, so a client's slash menu is the
 * skill list. `prompts/get` is the user's `/name args` in an agent: the engine renders the
 * skill with the arguments (its files named by `skill://` URIs), and the skill counts as loaded
 * in the session.
 */
export function handleSkillPrompts(server: Server, context: McpServerContext, session: McpSkillSession): void {
  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    const invocable = (await context.snapshot()).skills.filter(isUserInvocable);
    const paged = pageAfter(invocable, (skill) => skill.name, request.params?.cursor, context.pageSize);
    if (!paged) throw protocolError(ErrorCode.InvalidParams, `Invalid cursor: ${request.params?.cursor}`);
    return { prompts: paged.page.map(promptOf), ...(paged.nextCursor ? { nextCursor: paged.nextCursor } : {}) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: given = {} } = request.params;
    const skill = (await context.snapshot()).get(name);
    if (!skill || !isUserInvocable(skill))
      throw protocolError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${name}': no skill a user may invoke has that name`,
      );
    const args = argumentString(skill, given);
    if (args.length > MAX_SKILL_ARGUMENTS_CHARS)
      throw protocolError(
        ErrorCode.InvalidParams,
        `The arguments of prompt '${name}' are longer than ${MAX_SKILL_ARGUMENTS_CHARS} characters`,
      );
    const step = await session.run((skills) => {
      const command = context.engine.parseCommand(args === "" ? `/${name}` : `/${name} ${args}`, skills.state);
      return command
        ? context.engine.invoke(skills, command)
        : { ok: false, text: `Error: Skill '${name}' is no longer available.` };
    });
    if (!step.ok) throw protocolError(ErrorCode.InternalError, step.text);
    return {
      description: skill.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: step.text } }],
    };
  });
}

function promptOf(skill: SkillMetadata): Prompt {
  const hint = skill.argumentHint ? ` (${skill.argumentHint})` : "";
  const argumentsOf = skill.argumentNames
    ? skill.argumentNames.map((name, index) => ({ name, description: `Argument ${index + 1}${hint}`, required: false }))
    : [
        {
          name: ARGUMENTS_PROMPT_ARGUMENT,
          description: skill.argumentHint ?? "What to type after the skill's name, if anything",
          required: false,
        },
      ];
  return { name: skill.name, description: skill.description, arguments: argumentsOf };
}

// The prompt's arguments as the user would have typed them after `/name`: named arguments in
// their order, quoted so the engine splits them back into the same values.
function argumentString(skill: SkillMetadata, given: Record<string, string>): string {
  if (!skill.argumentNames) return (getOwn(given, ARGUMENTS_PROMPT_ARGUMENT) ?? "").trim();
  // Own properties only: an argument named `constructor` must not read Object.prototype.
  const values = skill.argumentNames.map((name) => getOwn(given, name) ?? "");
  while (values.length > 0 && values[values.length - 1] === "") values.pop();
  return values.map(quoteArgument).join(" ");
}

function quoteArgument(value: string): string {
  return value !== "" && !/[\s'"\\]/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
