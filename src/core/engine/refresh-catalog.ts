import type { Catalog } from "../catalog/catalog.js";
import { catalogView } from "../catalog/catalog-view.js";
import { emitSkillsEvent } from "../skill-events.js";
import type { CatalogRefresh, SkillRequest, SkillThreadState } from "./skill-engine-types.js";
import type { EngineContext } from "./engine-context.js";

/**
 * Re-scans `catalog` and caches it by version; `undefined` when the thread already has this
 * version, else the catalog to write and the unloads of loaded skills that left it. Discovery is
 * logged once per snapshot, since every thread refreshes the same snapshot.
 */
export async function refreshCatalog(
  context: EngineContext,
  catalog: Catalog,
  state: Pick<SkillThreadState, "loaded" | "catalogVersion">,
  sink: SkillRequest["emit"],
): Promise<CatalogRefresh | undefined> {
  const { logger } = context;
  context.catalogs.track(catalog);
  const snapshot = await catalog.refresh();
  const { skills, version, byName } = await catalogView(snapshot);
  if (!context.announced.has(snapshot)) {
    context.announced.add(snapshot);
    emitSkillsEvent(logger, undefined, {
      level: "info",
      event: "skills_discovered",
      message: `Discovered ${count(skills.length, "skill")} from ${count(catalog.sources.length, "source")}`,
      skills: skills.length,
      sources: catalog.sources.length,
    });
    for (const diagnostic of snapshot.diagnostics) {
      if (diagnostic.severity === "info") continue;
      const { message, ...fields } = diagnostic;
      emitSkillsEvent(logger, undefined, {
        ...fields,
        level: diagnostic.severity === "error" ? "error" : "warn",
        event: "skill_diagnostic",
        message: `${diagnostic.file}: ${message}`,
      });
    }
  }
  context.catalogs.remember(version, skills, byName);
  if (state.catalogVersion === version) return undefined;
  const gone = state.loaded.filter((name) => !snapshot.get(name));
  for (const skill of gone)
    emitSkillsEvent(logger, sink, {
      level: "warn",
      event: "skill_unloaded",
      message: `Skill '${skill}' unloaded: it is no longer in any source`,
      skill,
    });
  return {
    skills,
    version,
    skill: (name) => byName.get(name),
    operations: gone.map((skill) => ({ kind: "unload", skill })),
  };
}

/** `1 skill`, `2 skills`. */
function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? "" : "s"}`;
}
