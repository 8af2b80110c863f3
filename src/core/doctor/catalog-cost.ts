import type { TokenCounter } from "../text/count-tokens.js";
import { markdownLayout } from "../catalog/prompt-markdown.js";
import type { RenderedCatalog } from "../catalog/render-catalog.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { DoctorFinding } from "./doctor-finding.js";

/** Where the model's catalog shows a skill under the budget; `user only` skills are not in it. */
export type CatalogPlace = "whole" | "shortened" | "name only" | "search only" | "user only";

/** What one skill costs in the catalog every model call carries, and where the budget puts it. */
export interface SkillCatalogCost {
  name: string;
  path: string;
  /** Tokens (o200k_base) of the skill's whole catalog line, its newline included; 0 for `user only`. */
  tokens: number;
  place: CatalogPlace;
}

/** The catalog of a library under a budget: each skill's cost and place, and the totals. */
export interface CatalogCostReport {
  /** The budget applied, or `false` for none. */
  budget: number | false;
  /** Tokens of the catalog as the model receives it, under the budget. */
  tokens: number;
  /** Tokens of the skills' whole lines together: what the catalog would take with no budget, less its frame. */
  wholeTokens: number;
  /** Most expensive first. */
  skills: SkillCatalogCost[];
}

/** Each skill's catalog cost and its place in `catalog`, the catalog rendered under `budget`. */
export function catalogCosts(
  skills: readonly SkillMetadata[],
  catalog: RenderedCatalog,
  budget: number | false,
  count: TokenCounter,
): CatalogCostReport {
  const layout = markdownLayout({});
  const places = catalogPlaces(catalog, skills);
  const costs = skills.map((skill): SkillCatalogCost => {
    const place = places.get(skill.name) ?? "whole";
    return {
      name: skill.name,
      path: skill.path,
      tokens: place === "user only" ? 0 : count(layout.entry(skill, "full")) + 1,
      place,
    };
  });
  costs.sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : 1));
  return {
    budget,
    tokens: catalog.tokens,
    wholeTokens: costs.reduce((sum, cost) => sum + cost.tokens, 0),
    skills: costs,
  };
}

/** Where `catalog` put each of `skills`. */
export function catalogPlaces(catalog: RenderedCatalog, skills: readonly SkillMetadata[]): Map<string, CatalogPlace> {
  const places = new Map<string, CatalogPlace>();
  for (const skill of skills) if (skill.disableModelInvocation) places.set(skill.name, "user only");
  const groups: Array<[readonly string[], CatalogPlace]> = [
    [catalog.full, "whole"],
    [catalog.short, "shortened"],
    [catalog.named, "name only"],
    [catalog.hidden, "search only"],
  ];
  for (const [names, place] of groups) for (const name of names) places.set(name, place);
  return places;
}

const PLACE_FINDINGS: Partial<
  Record<CatalogPlace, { code: string; severity: DoctorFinding["severity"]; shows: string }>
> = {
  shortened: { code: "catalog-shortened", severity: "info", shows: "with its description shortened" },
  "name only": { code: "catalog-name-only", severity: "warning", shows: "by name only, without its description" },
  "search only": {
    code: "catalog-search-only",
    severity: "warning",
    shows: "not at all (only search_skills finds it)",
  },
};

/** A finding for each skill the budget shows less than whole. */
export function catalogFindings(report: CatalogCostReport): DoctorFinding[] {
  if (report.budget === false) return [];
  const budget = report.budget.toLocaleString("en-US");
  return report.skills.flatMap((cost): DoctorFinding[] => {
    const place = PLACE_FINDINGS[cost.place];
    if (!place) return [];
    return [
      {
        code: place.code,
        severity: place.severity,
        skill: cost.name,
        file: cost.path,
        value: cost.tokens,
        message: `Under the catalog budget of ${budget} tokens, the model's catalog shows '${cost.name}' ${place.shows}; its whole line takes ${cost.tokens} tokens`,
        fix: "Shorten the longest descriptions of the library (see the catalog costs), remove skills it does not need, or raise catalogBudget; catalogPriority keeps chosen skills whole",
      },
    ];
  });
}
