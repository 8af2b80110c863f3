import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DEFAULT_RESOURCE_LINES } from "../../core/resources/read-resource.js";
import type { SkillEngine } from "../../core/engine/skill-engine.js";
import {
  LOAD_SKILL_DESCRIPTION,
  SEARCH_SKILLS_DESCRIPTION,
  UNLOAD_SKILL_DESCRIPTION,
} from "../../core/tools/skill-tool-messages.js";
import type { McpSkillSession } from "./mcp-session.js";
import { withServedFileNames } from "./served-file-names.js";

/** Longest `arguments` string `load_skill` and prompts accept; longer is a usage error, not a skill. */
export const MAX_SKILL_ARGUMENTS_CHARS = 10_000;

// As the LangChain tools say it, for a model that reaches the skills through an MCP client.
const READ_RESOURCE_DESCRIPTION =
  "Read a file of a loaded skill (a script, reference, asset or template) by its path relative to the skill's folder, as load_skill listed it. Text comes in pages of lines; use offset for the next page.";

const RUN_SCRIPT_DESCRIPTION =
  "Run one of a loaded skill's scripts, or a command its allowed-tools permit, in the skill's folder on the server. One program with arguments and no shell: no pipes, redirections, ';', '&&' or '$'.";

const skillName = z.string().min(1).max(256);

/** The catalog as the tools show it: its text, and whether the engine offers `search_skills` for it. */
export interface ToolCatalog {
  text: string;
  search: boolean;
}

/** The registered tools that follow the catalog. */
export interface SkillTools {
  /** Puts the catalog into `load_skill`'s description and offers `search_skills` or not; clients hear of it through `tools/list_changed`. */
  showCatalog(catalog: ToolCatalog): void;
}

/**
 * Registers the skill tools of one session on `server`, with the LangChain tools' names and
 * arguments: `load_skill`, `unload_skill`, `read_skill_resource`, `search_skills` (while the
 * engine offers search) and, only with `scripts`, `run_skill_script`. Every call goes to the engine
 * with the session's state; a refusal is a result with `isError: true` and the engine's wording.
 * A loaded skill's files are named by `skill://` URIs, not the server's paths.
 */
export function registerSkillTools(
  server: McpServer,
  engine: SkillEngine,
  session: McpSkillSession,
  options: { scripts: boolean; catalog: ToolCatalog },
): SkillTools {
  let calls = 0;
  const callId = () => `${session.id}#${++calls}`;
  const reply = async (action: Parameters<McpSkillSession["run"]>[0]): Promise<CallToolResult> => {
    const outcome = await session.run(action);
    const text = withServedFileNames(outcome.text);
    return { content: [{ type: "text", text }], ...(outcome.ok ? {} : { isError: true }) };
  };

  const load = server.registerTool(
    "load_skill",
    {
      description: loadDescription(options.catalog.text),
      inputSchema: {
        skill_name: skillName.describe("Name of the skill to load, from the skills list."),
        arguments: z
          .string()
          .max(MAX_SKILL_ARGUMENTS_CHARS)
          .optional()
          .describe("Arguments for the skill, as a user would type them after /name (see the skill's argument hint)."),
      },
    },
    ({ skill_name: skill, arguments: args }) =>
      reply((request) =>
        engine.load(request, { skill, id: callId(), ...(args !== undefined ? { arguments: args } : {}) }),
      ),
  );

  server.registerTool(
    "unload_skill",
    {
      description: UNLOAD_SKILL_DESCRIPTION,
      inputSchema: { skill_name: skillName.describe("Name of the loaded skill to unload.") },
    },
    ({ skill_name: skill }) => reply((request) => engine.unload(request, { skill, id: callId() })),
  );

  server.registerTool(
    "read_skill_resource",
    {
      description: READ_RESOURCE_DESCRIPTION,
      inputSchema: {
        skill_name: skillName.describe("A loaded skill."),
        path: z.string().min(1).max(1024).describe("Path relative to the skill's folder, e.g. references/guide.md."),
        offset: z.number().int().min(0).optional().describe("First line to read, 0-based. Default 0."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(2000)
          .optional()
          .describe(`Lines to read. Default ${DEFAULT_RESOURCE_LINES}.`),
      },
    },
    ({ skill_name: skill, path, offset, limit }) =>
      reply((request) =>
        engine.readResource(request, {
          skill,
          path,
          ...(offset !== undefined ? { offset } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
      ),
  );

  const search = server.registerTool(
    "search_skills",
    {
      description: SEARCH_SKILLS_DESCRIPTION,
      inputSchema: {
        query: z.string().min(1).max(1000).describe("What you need to do, in a few words."),
        limit: z.number().int().min(1).max(25).optional().describe("Most skills to return. Default 5."),
      },
    },
    ({ query, limit }) =>
      reply((request) => engine.search(request, { query, ...(limit !== undefined ? { limit } : {}) })),
  );
  if (!options.catalog.search) search.disable();

  if (options.scripts) {
    server.registerTool(
      "run_skill_script",
      {
        description: RUN_SCRIPT_DESCRIPTION,
        inputSchema: {
          skill_name: skillName.describe("A loaded skill."),
          command: z
            .string()
            .min(1)
            .max(MAX_SKILL_ARGUMENTS_CHARS)
            .describe("The command, e.g. `python3 scripts/profile_csv.py data.csv`."),
        },
      },
      ({ skill_name: skill, command }) => reply((request) => engine.runScript(request, { skill, command })),
    );
  }

  return {
    showCatalog(catalog) {
      load.update({ description: loadDescription(catalog.text) });
      if (catalog.search !== search.enabled) search.update({ enabled: catalog.search });
    },
  };
}

function loadDescription(catalogText: string): string {
  return `${LOAD_SKILL_DESCRIPTION}\n\n${catalogText}`;
}
