import { z } from "zod";
import { DEFAULT_RESOURCE_LINES } from "../resources/read-resource.js";
import {
  DEFAULT_SEARCH_LIMIT,
  defineSkillTool,
  defineTool,
  MAX_CODE_CHARS,
  MAX_RESOURCE_LINES,
  MAX_RESOURCE_PATH_CHARS,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_QUERY_CHARS,
  MAX_SKILL_ARGUMENTS_CHARS,
  skillNameInput,
} from "./skill-tool-definition.js";

// The five skill tools: what the model sees before it calls one, for the LangChain, AI SDK and MCP
// hosts and the text protocol alike. What it reads after (results, refusals) the engine writes,
// once for every host, in skill-tool-messages.ts.

// Said by run_skill_script and by the text protocol's <execute_script>.
const NO_SHELL = "no pipes, redirections, `;`, `&&` or `$`";

/** `load_skill`: a skill's instructions and resources into the conversation. */
export const LOAD_SKILL = defineSkillTool({
  name: "load_skill",
  description:
    "Load a skill's full instructions and list its resources. Use it when a task matches a skill in the skills list, before doing the task, instead of reading SKILL.md yourself.",
  input: z.object({
    skill_name: skillNameInput("Name of the skill to load, from the skills list."),
    arguments: z
      .string()
      .max(MAX_SKILL_ARGUMENTS_CHARS)
      .optional()
      .describe("Arguments for the skill, as a user would type them after /name (see the skill's argument hint)."),
  }),
  engineInput: ({ skill_name: skill, arguments: args }) => ({
    skill,
    ...(args !== undefined ? { arguments: args } : {}),
  }),
  textProtocol: {
    tag: "use_skill",
    form: "<use_skill>skill-name</use_skill>",
    summary: "Loads a skill's instructions and lists its files.",
  },
});

/** `unload_skill`: frees a loading slot. */
export const UNLOAD_SKILL = defineSkillTool({
  name: "unload_skill",
  description:
    "Unload a loaded skill to free a loading slot, when you no longer need it or must load another skill and no slot is left.",
  input: z.object({ skill_name: skillNameInput("Name of the loaded skill to unload.") }),
  engineInput: ({ skill_name: skill }) => ({ skill }),
  textProtocol: {
    tag: "unload_skill",
    form: "<unload_skill>skill-name</unload_skill>",
    summary: "Unloads a skill you no longer need",
  },
});

/** `search_skills`: finds skills the catalog in the prompt leaves out when it is over its budget. */
export const SEARCH_SKILLS = defineSkillTool({
  name: "search_skills",
  description:
    "Search all available skills, including those the skills list does not show, by what you need to do. Returns the best matches with their descriptions; load one with load_skill.",
  input: z.object({
    query: z
      .string()
      .min(1)
      .max(MAX_SEARCH_QUERY_CHARS)
      .describe("What you need a skill for, in a few words (the task, the file type, the tool)."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`How many skills to return. Default ${DEFAULT_SEARCH_LIMIT}.`),
  }),
  engineInput: ({ query, limit }) => ({ query, ...(limit !== undefined ? { limit } : {}) }),
  textProtocol: {
    tag: "search_skills",
    form: "<search_skills>words about the task</search_skills>",
    summary:
      "Searches every skill, also those <available_skills> does not show in full, and lists the best matches with their descriptions; load one with <use_skill>.",
  },
});

/** `read_skill_resource`: a loaded skill's file, text paginated by lines, binary described. */
export const READ_SKILL_RESOURCE = defineSkillTool({
  name: "read_skill_resource",
  description:
    "Read a file of a loaded skill (a script, reference, asset or template) by its path relative to the skill's folder, as load_skill listed it. Text comes in pages of lines; use offset for the next page.",
  input: z.object({
    skill_name: skillNameInput("A loaded skill."),
    path: z
      .string()
      .min(1)
      .max(MAX_RESOURCE_PATH_CHARS)
      .describe("Path relative to the skill's folder, e.g. references/guide.md."),
    offset: z.number().int().min(0).optional().describe("First line to read, 0-based. Default 0."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESOURCE_LINES)
      .optional()
      .describe(`Lines to read. Default ${DEFAULT_RESOURCE_LINES}.`),
  }),
  engineInput: ({ skill_name: skill, path, offset, limit }) => ({
    skill,
    path,
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined ? { limit } : {}),
  }),
  textProtocol: {
    tag: "read_resource",
    form: '<read_resource skill="skill-name">path/in/the/skill</read_resource>',
    summary: "Reads a file of a loaded skill, by its path relative to the skill's folder.",
  },
});

/** `run_skill_script`: runs a command in a loaded skill's folder, if its allow-list permits it. */
export const RUN_SKILL_SCRIPT = defineSkillTool({
  name: "run_skill_script",
  description: `Run one of a loaded skill's scripts, or a command its allowed-tools permit, in the skill's folder. One program with arguments and no shell: ${NO_SHELL}.`,
  input: z.object({
    skill_name: skillNameInput("A loaded skill."),
    command: z
      .string()
      .min(1)
      .max(MAX_SKILL_ARGUMENTS_CHARS)
      .describe("The command, e.g. `python3 scripts/profile_csv.py data.csv`."),
  }),
  engineInput: ({ skill_name: skill, command }) => ({ skill, command }),
  textProtocol: {
    tag: "execute_script",
    form: '<execute_script skill="skill-name">scripts/example.py --option value</execute_script>',
    summary: `Runs one program with its arguments in a loaded skill's folder, without a shell: ${NO_SHELL}.`,
  },
});

/** Every skill tool, in the order the tool-calling hosts offer them. */
export const SKILL_TOOL_DEFINITIONS = [LOAD_SKILL, UNLOAD_SKILL, SEARCH_SKILLS, READ_SKILL_RESOURCE, RUN_SKILL_SCRIPT];

/** A skill tool's name. */
export type SkillToolName = (typeof SKILL_TOOL_DEFINITIONS)[number]["name"];

/**
 * `run_code`: the model's JavaScript, run in a sandbox, importing loaded skills' modules and calling the
 * agent's tools; only its logs and returned value come back. Offered only when the app turns code mode on,
 * and only to tool-calling hosts (the text protocol has no instruction for it).
 */
export const RUN_CODE = defineTool({
  name: "run_code",
  description:
    "Run JavaScript in a sandbox; only its console output and returned value come back to you. Use it to call " +
    "tools many times, or to work through data, without every intermediate result passing through the " +
    "conversation. The code is the body of an async function: use `await`, and `return` the result (plain " +
    'data, as small as will do). Import a loaded skill\'s module with `import { name } from "@/skills/<skill>"` ' +
    'at the top, or a file inside it with `@/skills/<skill>/<path>`, or `await import("@/skills/<skill>")`; ' +
    "only loaded skills can be imported. Call the agent's tools as `await tools.<name>(args)`, with the tool's " +
    "name in camelCase (read_file is `tools.readFile({ ... })`) and the same arguments as a direct call; only " +
    "the tools the app lets code use are there. `console.log` prints. There is no file system, network or " +
    "`require` besides these.",
  input: z.object({
    code: z
      .string()
      .min(1)
      .max(MAX_CODE_CHARS)
      .describe("The body of an async function, in JavaScript; `return` the value you want back."),
  }),
  engineInput: ({ code }) => ({ code }),
});
