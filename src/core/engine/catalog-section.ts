import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../prompt-markdown.js";
import { renderCatalog, type RenderedCatalog } from "../render-catalog.js";
import { emitSkillsEvent, type SkillsLogEntry } from "../skill-events.js";
import type { SkillRequest } from "../skill-engine-types.js";
import type { Rendering } from "./catalog-cache.js";
import { SEARCH_TOOL, type EngineContext } from "./engine-context.js";

/**
 * The catalog section of the prompt for `catalog`, fitted to the budget: rendered once per catalog
 * version and kept with it, since every thread of that version shows the same text.
 */
export async function catalogSection(context: EngineContext, request: SkillRequest, catalog: Rendering): Promise<RenderedCatalog> {
  const { options, budget, offer } = context;
  catalog.catalog ??= request.sources().then((sources) =>
    renderCatalog(catalog.skills, {
      maxDescriptionLength: options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH,
      resourceReadTool: context.readTool,
      allowedToolsPolicy: context.policy,
      ...(options.scriptRunTool ? { scriptRunTool: options.scriptRunTool } : {}),
      ...(options.guidance ? { guidance: options.guidance } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(options.catalogPriority ? { pinned: options.catalogPriority } : {}),
      ...(offer !== "never" ? { searchTool: SEARCH_TOOL } : {}),
      sourceOrder: sources.map((source) => source.id),
    }).then((fitted) => {
      // Once per catalog version, and only for hosts that show this catalog.
      if (overBudget(fitted)) emitSkillsEvent(context.logger, undefined, budgetEvent(fitted, budget!, offer !== "never"));
      return fitted;
    }),
  );
  return catalog.catalog;
}

/** Whether the budget made the catalog leave anything out of a skill's full line. */
export function overBudget(catalog: RenderedCatalog): boolean {
  return catalog.short.length + catalog.named.length + catalog.hidden.length > 0;
}

function budgetEvent(catalog: RenderedCatalog, budget: number, searchable: boolean): SkillsLogEntry {
  const parts = [`${catalog.full.length} whole`, `${catalog.short.length} shortened`, `${catalog.named.length} by name only`, `${catalog.hidden.length} left out${searchable ? " (search_skills finds them)" : " (no search tool: the model cannot see them)"}`];
  return {
    level: catalog.hidden.length > 0 && !searchable ? "warn" : "info",
    event: "catalog_over_budget",
    message: `The skills catalog is over its budget of ${budget} tokens: ${parts.join(", ")}; it now takes ${catalog.tokens} tokens`,
    budget,
    tokens: catalog.tokens,
    full: catalog.full.length,
    shortened: catalog.short,
    namedOnly: catalog.named,
    leftOut: catalog.hidden,
  };
}
