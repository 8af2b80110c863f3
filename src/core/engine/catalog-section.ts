import { DEFAULT_MAX_DESCRIPTION_LENGTH } from "../catalog/prompt-markdown.js";
import { renderCatalog, type RenderedCatalog } from "../catalog/render-catalog.js";
import { emitSkillsEvent, type SkillsLogEntry } from "../skill-events.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { Rendering } from "./catalog-cache.js";
import { SEARCH_TOOL, type EngineContext } from "./engine-context.js";

/**
 * The catalog section of the prompt for `catalog`, fitted to the budget: rendered once per catalog
 * version and the file tools it names, and kept with the version, since every thread of that
 * version (and agent) shows the same text.
 */
export async function catalogSection(
  context: EngineContext,
  request: SkillRequest,
  catalog: Rendering,
): Promise<RenderedCatalog> {
  const { options, budget, offer } = context;
  const read = request.fileTools?.read ?? context.readTool;
  const run = request.fileTools ? request.fileTools.run : options.scriptRunTool;
  const createIn = request.fileTools?.createSkillsIn ?? [];
  const key = JSON.stringify([read, run, createIn]);
  catalog.sections ??= new Map();
  const cached = catalog.sections.get(key);
  if (cached) return cached;
  // The budget event is once per catalog version, whatever tools its agents have.
  const first = catalog.sections.size === 0;
  const section = request.sources().then((sources) =>
    renderCatalog(catalog.skills, {
      maxDescriptionLength: options.maxDescriptionLength ?? DEFAULT_MAX_DESCRIPTION_LENGTH,
      resourceReadTool: read,
      allowedToolsPolicy: context.policy,
      ...(run ? { scriptRunTool: run } : {}),
      ...(createIn.length > 0 ? { createSkillsIn: createIn } : {}),
      ...(options.guidance ? { guidance: options.guidance } : {}),
      ...(budget !== undefined ? { budget } : {}),
      ...(options.catalogPriority ? { pinned: options.catalogPriority } : {}),
      ...(offer !== "never" ? { searchTool: SEARCH_TOOL } : {}),
      sourceOrder: sources.map((source) => source.id),
    }).then((fitted) => {
      // Once per catalog version, and only for hosts that show this catalog.
      if (first && overBudget(fitted))
        emitSkillsEvent(context.logger, undefined, budgetEvent(fitted, budget!, offer !== "never"));
      return fitted;
    }),
  );
  catalog.sections.set(key, section);
  return section;
}

/** Whether the budget made the catalog leave anything out of a skill's full line. */
export function overBudget(catalog: RenderedCatalog): boolean {
  return catalog.short.length + catalog.named.length + catalog.hidden.length > 0;
}

function budgetEvent(catalog: RenderedCatalog, budget: number, searchable: boolean): SkillsLogEntry {
  const parts = [
    `${catalog.full.length} whole`,
    `${catalog.short.length} shortened`,
    `${catalog.named.length} by name only`,
    `${catalog.hidden.length} left out${searchable ? " (search_skills finds them)" : " (no search tool: the model cannot see them)"}`,
  ];
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
