import type { ParsedSkillsMiddlewareOptions } from "./skills-middleware-options.js";

export const LOAD_SKILL_TOOL = "load_skill" as const;
export const UNLOAD_SKILL_TOOL = "unload_skill" as const;
export const SEARCH_SKILLS_TOOL = "search_skills" as const;

/** A tool the skills middleware brings itself. */
export type MiddlewareToolName =
  | typeof LOAD_SKILL_TOOL
  | typeof UNLOAD_SKILL_TOOL
  | typeof SEARCH_SKILLS_TOOL
  | "read_skill_resource"
  | "run_skill_script";

/**
 * The middleware's own tools under these options, in the order the agent gets them. Known before
 * the tools are built, because the skill tools and the forks must tell them apart from others.
 */
export function middlewareToolNames(
  options: Pick<ParsedSkillsMiddlewareOptions, "searchSkills" | "readResourceTool" | "runScripts">,
): MiddlewareToolName[] {
  return [
    LOAD_SKILL_TOOL,
    UNLOAD_SKILL_TOOL,
    ...(options.searchSkills !== false ? [SEARCH_SKILLS_TOOL] : []),
    ...(options.readResourceTool !== false ? ["read_skill_resource" as const] : []),
    ...(options.runScripts ? ["run_skill_script" as const] : []),
  ];
}
