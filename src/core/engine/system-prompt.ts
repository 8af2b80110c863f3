import { renderLoadedSkills } from "../loaded/prompt-loaded.js";
import { droppedSkills, restoreDroppedSkills } from "../loaded/restore-dropped-skills.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { allowedToolUnion } from "../tools/tool-policy.js";
import { loadedSkillsOf } from "./catalog-cache.js";
import { catalogSection } from "./catalog-section.js";
import { codeModulesSection } from "./code-mode-prompt.js";
import type { EngineContext } from "./engine-context.js";
import { readSkillText, sourceOf } from "./skill-reader.js";

/**
 * The skills section of the system prompt: the stable catalog first (it keeps the provider's prompt
 * cache), then what changes: the loaded skills, and the instructions of loaded skills whose load
 * result left the context, re-attached so that "loaded" stays true.
 */
export async function systemPrompt(
  context: EngineContext,
  request: SkillRequest,
  visibleTexts: (() => readonly string[]) | undefined,
): Promise<string> {
  const { state } = request;
  const { maxLoaded, policy } = context;
  const catalog = await context.catalogs.resolve(request);
  const loaded = loadedSkillsOf(state, catalog);
  const union = policy === "restrict" ? allowedToolUnion(loaded) : undefined;
  const dynamic = renderLoadedSkills({
    loaded,
    resources: state.resources,
    maxLoaded,
    policy,
    ...(union ? { allowedTools: union } : {}),
  });
  const modules = context.code && loaded.length > 0 ? await codeModulesSection(context, request, loaded) : "";
  // `+` keeps the large, cached catalog text shared instead of copying it on every call.
  let section = (await catalogSection(context, request, catalog)).text + "\n\n" + dynamic;
  if (modules) section += "\n\n" + modules;
  // Checked without awaiting anything: this runs on every model call, and nothing is dropped
  // almost always.
  const dropped = loaded.length > 0 && visibleTexts ? droppedSkills(loaded, visibleTexts()) : [];
  if (dropped.length > 0) {
    const read = (skill: SkillMetadata) =>
      sourceOf(request, skill)
        .then((source) => readSkillText(source, skill))
        .catch(() => undefined);
    const restored = await restoreDroppedSkills(dropped, read);
    if (restored.text) {
      section += "\n\n" + restored.text;
      for (const skill of restored.skills)
        context.emit(request, {
          level: "info",
          event: "skill_restored",
          message: `Skill '${skill}' re-attached after its load result left the context`,
          skill,
        });
    }
  }
  return section;
}
