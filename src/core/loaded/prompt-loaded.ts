import { getOwn } from "../text/safe-text.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { summarizeResources, type SkillResource } from "../resources/skill-resources.js";
import type { AllowedToolsPolicy } from "../tools/tool-policy.js";

/** Inputs of {@link renderLoadedSkills}. */
export interface LoadedSkillsView {
  /** Loaded skills, in load order. */
  loaded: readonly Pick<SkillMetadata, "name" | "allowedTools">[];
  resources: Readonly<Record<string, readonly Pick<SkillResource, "type">[]>>;
  maxLoaded: number;
  policy: AllowedToolsPolicy;
  /** Tools allowed under `"restrict"`, when a loaded skill declares any. */
  allowedTools?: ReadonlySet<string>;
}

/**
 * The part of the skills prompt that changes with loads and unloads: the loaded skills with
 * their resource summary and recommended tools, and the slots left. It goes after the stable
 * catalog so the prompt's unchanged prefix, which provider prompt caches reuse, stays as long as possible.
 */
export function renderLoadedSkills(view: LoadedSkillsView): string {
  const free = view.maxLoaded - view.loaded.length;
  if (view.loaded.length === 0) return `Loaded skills: none (${view.maxLoaded} slots free).`;
  const lines = [`Loaded skills (${view.loaded.length}/${view.maxLoaded}, ${free} slot${free === 1 ? "" : "s"} free):`];
  for (const skill of view.loaded) {
    const parts: string[] = [];
    const summary = summarizeResources(getOwn(view.resources, skill.name) ?? []);
    if (summary) parts.push(summary);
    if (skill.allowedTools.length > 0) {
      parts.push(`${view.policy === "restrict" ? "allowed" : "recommended"} tools: ${skill.allowedTools.join(", ")}`);
    }
    lines.push(`- ${skill.name}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}`);
  }
  if (view.policy === "restrict" && view.allowedTools) {
    lines.push(
      `While these skills are loaded, only these tools may be used besides the skill and file-reading tools: ${[...view.allowedTools].sort().join(", ")}.`,
    );
  }
  return lines.join("\n");
}
