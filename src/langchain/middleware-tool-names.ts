import {
  LOAD_SKILL,
  READ_SKILL_RESOURCE,
  RUN_CODE,
  RUN_SKILL_SCRIPT,
  SEARCH_SKILLS,
  UNLOAD_SKILL,
} from "../core/tools/skill-tool-definitions.js";
import type { ParsedSkillsMiddlewareOptions } from "./skills-middleware-options.js";

export const LOAD_SKILL_TOOL = LOAD_SKILL.name;
export const UNLOAD_SKILL_TOOL = UNLOAD_SKILL.name;
export const SEARCH_SKILLS_TOOL = SEARCH_SKILLS.name;

/** A tool the skills middleware brings itself. */
export type MiddlewareToolName =
  | typeof LOAD_SKILL.name
  | typeof UNLOAD_SKILL.name
  | typeof SEARCH_SKILLS.name
  | typeof READ_SKILL_RESOURCE.name
  | typeof RUN_SKILL_SCRIPT.name
  | typeof RUN_CODE.name;

/**
 * The middleware's own tools under these options, in the order the agent gets them. Known before
 * the tools are built, because the skill tools and the forks must tell them apart from others.
 */
export function middlewareToolNames(
  options: Pick<ParsedSkillsMiddlewareOptions, "searchSkills" | "readResourceTool" | "runScripts"> & {
    codeMode?: ParsedSkillsMiddlewareOptions["codeMode"];
  },
): MiddlewareToolName[] {
  return [
    LOAD_SKILL.name,
    UNLOAD_SKILL.name,
    ...(options.searchSkills !== false ? [SEARCH_SKILLS.name] : []),
    ...(options.readResourceTool !== false ? [READ_SKILL_RESOURCE.name] : []),
    ...(options.runScripts ? [RUN_SKILL_SCRIPT.name] : []),
    ...(options.codeMode ? [RUN_CODE.name] : []),
  ];
}
