import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import {
  applySkillOperations,
  type SkillEngine,
  type SkillRequest,
  type SkillStep,
} from "../../core/engine/skill-engine.js";
import {
  LOAD_SKILL,
  READ_SKILL_RESOURCE,
  RUN_CODE,
  RUN_SKILL_SCRIPT,
  SEARCH_SKILLS,
  UNLOAD_SKILL,
} from "../../core/tools/skill-tool-definitions.js";
import type { McpSkillSession } from "./mcp-session.js";

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

type SessionAction = Parameters<McpSkillSession["run"]>[0];

/**
 * Registers the skill tools of one session on `server`, from their definitions
 * (`core/tools/skill-tool-definitions.ts`): `load_skill`, `unload_skill`, `read_skill_resource`,
 * `search_skills` (while the engine offers search) and, only with `scripts`, `run_skill_script`.
 * Every call goes to the engine with the session's state; a refusal is a result with
 * `isError: true` and the engine's wording. A loaded skill's files are named by `skill://` URIs,
 * not the server's paths.
 */
export function registerSkillTools(
  server: McpServer,
  engine: SkillEngine,
  session: McpSkillSession,
  options: { scripts: boolean; code?: boolean; catalog: ToolCatalog },
): SkillTools {
  let calls = 0;
  const callId = () => `${session.id}#${++calls}`;
  const reply = async (action: SessionAction): Promise<CallToolResult> => {
    const outcome = await session.run(action);
    return { content: [{ type: "text", text: outcome.text }], ...(outcome.ok ? {} : { isError: true }) };
  };
  // A definition as an MCP tool: the SDK takes the input schema as a zod raw shape.
  const register = <Input extends z.ZodObject>(
    definition: { name: string; description: string; input: Input },
    call: (input: z.output<Input>) => SessionAction,
    description = definition.description,
  ): RegisteredTool =>
    server.registerTool(
      definition.name,
      { description, inputSchema: definition.input.shape },
      // The SDK has validated the arguments against the same schema.
      (input: unknown) => reply(call(input as z.output<Input>)),
    );

  const load = register(
    LOAD_SKILL,
    (input) => async (request) => {
      const step = await engine.load(request, { ...LOAD_SKILL.engineInput(input), id: callId() });
      return options.code && step.ok ? withModuleExports(engine, request, step) : step;
    },
    loadDescription(options.catalog.text),
  );
  register(
    UNLOAD_SKILL,
    (input) => (request) => engine.unload(request, { ...UNLOAD_SKILL.engineInput(input), id: callId() }),
  );
  register(
    READ_SKILL_RESOURCE,
    (input) => (request) => engine.readResource(request, READ_SKILL_RESOURCE.engineInput(input)),
  );
  const search = register(
    SEARCH_SKILLS,
    (input) => (request) => engine.search(request, SEARCH_SKILLS.engineInput(input)),
  );
  if (!options.catalog.search) search.disable();
  if (options.scripts)
    register(RUN_SKILL_SCRIPT, (input) => (request) => engine.runScript(request, RUN_SKILL_SCRIPT.engineInput(input)));
  // No tools for the code: the skill tools are never callable from code, and the client's tools are the client's.
  if (options.code) register(RUN_CODE, (input) => (request) => engine.runCode(request, RUN_CODE.engineInput(input)));

  return {
    showCatalog(catalog) {
      load.update({ description: loadDescription(catalog.text) });
      if (catalog.search !== search.enabled) search.update({ enabled: catalog.search });
    },
  };
}

// MCP has no system prompt of its own: the load result says what the skill's module exports.
async function withModuleExports(engine: SkillEngine, request: SkillRequest, step: SkillStep): Promise<SkillStep> {
  if (!step.ok) return step;
  const loaded = { ...request, state: applySkillOperations(request.state, step.operations) };
  const added = loaded.state.loaded.filter((name) => !request.state.loaded.includes(name));
  const section = await engine.codeModules({ ...loaded, state: { ...loaded.state, loaded: added } });
  return section ? { ...step, text: `${step.text}\n\n${section}` } : step;
}

// This host's wrapping: the catalog follows the shared description, since MCP has no system prompt of its own.
function loadDescription(catalogText: string): string {
  return `${LOAD_SKILL.description}\n\n${catalogText}`;
}
