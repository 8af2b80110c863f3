import type { SkillRequest, SkillSearchReply, SkillSearchResult } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { fuseRankings, type RankedSkill } from "../search/skill-search.js";
import { searchableSkills, type Rendering } from "./catalog-cache.js";
import { catalogSection, overBudget } from "./catalog-section.js";
import type { EngineContext } from "./engine-context.js";
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "../tools/skill-tool-definition.js";

// How many candidates each ranker gives when several are fused.
const FUSION_DEPTH = 50;

/** The model's `search_skills`: the skills it may load that best match the query, as text and as data. */
export async function searchReply(
  context: EngineContext,
  request: SkillRequest,
  input: { query: string; limit?: number },
): Promise<SkillSearchReply> {
  const query = input.query.trim();
  const limit = Math.min(Math.max(Math.floor(input.limit ?? DEFAULT_SEARCH_LIMIT), 1), MAX_SEARCH_LIMIT);
  if (query === "")
    return {
      ok: false,
      text: "Error: The search query is empty. Describe the task in a few words.",
      results: [],
      weakMatches: [],
    };
  const hits = await searchSkills(context, await context.catalogs.resolve(request), query, limit);
  const toResult = ({ skill, score }: (typeof hits)[number]): SkillSearchResult => ({
    name: skill.name,
    description: skill.description,
    ...(skill.argumentHint !== undefined ? { argumentHint: skill.argumentHint } : {}),
    path: skill.path,
    score,
  });
  const results = hits.filter((hit) => hit.weak !== true).map(toResult);
  const weakMatches = hits.filter((hit) => hit.weak === true).map(toResult);
  const message = `search_skills('${query}') found ${results.length} skills${weakMatches.length > 0 ? ` and ${weakMatches.length} weak matches` : ""}`;
  context.emit(request, {
    level: "info",
    event: "skills_searched",
    message,
    query,
    results: results.length,
    weakMatches: weakMatches.length,
  });
  return { ok: true, text: searchResultText(query, results, weakMatches), results, weakMatches };
}

/** Every ranker over the skills the model may load; several are fused by reciprocal rank. */
export async function searchSkills(
  context: EngineContext,
  catalog: Rendering,
  query: string,
  limit: number,
): Promise<Array<RankedSkill & { skill: SkillMetadata }>> {
  const { rankers } = context;
  const skills = searchableSkills(catalog);
  const rankings = await Promise.all(
    rankers.map((rank) => rank(query, skills, rankers.length > 1 ? Math.max(limit, FUSION_DEPTH) : limit)),
  );
  const ranked = rankings.length === 1 ? rankings[0]!.slice(0, limit) : fuseRankings(rankings, limit);
  return ranked.flatMap((hit) => {
    const skill = catalog.byName.get(hit.name);
    return skill && !skill.disableModelInvocation ? [{ ...hit, skill }] : [];
  });
}

/** Whether hosts offer `search_skills` for `catalog`: always, never, or while it is over its budget. */
export async function offersSearch(
  context: EngineContext,
  request: SkillRequest,
  catalog: Rendering,
): Promise<boolean> {
  return (
    context.offer === "always" ||
    (context.offer === "auto" && overBudget(await catalogSection(context, request, catalog)))
  );
}

/**
 * What `search_skills` tells the model: each skill as a catalog line would, and what to do next.
 * Weak matches come apart and are called so, so that a request no skill fits is not answered
 * with unrelated skills.
 */
export function searchResultText(
  query: string,
  results: readonly SkillSearchResult[],
  weakMatches: readonly SkillSearchResult[] = [],
): string {
  if (results.length === 0 && weakMatches.length === 0)
    return `No skills match '${query}'. Try other words, or go on without a skill.`;
  const lines = (found: readonly SkillSearchResult[]) =>
    found.map(
      (result) =>
        `- ${result.name}${result.argumentHint ? ` (arguments: ${result.argumentHint})` : ""}: ${result.description.replace(/\s+/g, " ").trim()}`,
    );
  if (results.length === 0) {
    return `No skill matches '${query}' well. The closest, weak matches (probably not what the task needs):\n${lines(weakMatches).join("\n")}\nLoad one only if it clearly fits; otherwise try other words, or go on without a skill.`;
  }
  const weak =
    weakMatches.length > 0 ? [`Weak matches (probably not what the task needs):`, ...lines(weakMatches)] : [];
  return [
    `Skills matching '${query}', best first:`,
    ...lines(results),
    ...weak,
    "Load one with load_skill to use it.",
  ].join("\n");
}
