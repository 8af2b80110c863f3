import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { quoteForPrompt } from "../text/safe-text.js";
import { loadedSkillMarker } from "../tools/skill-tool-messages.js";

/** Bounds of what is re-attached, as other agents bound it: per skill and in total. */
export const RESTORE_LIMITS = { perSkillChars: 20_000, totalChars: 50_000 } as const;

const MARKER = '<skill name="';

/**
 * The loaded skills whose instructions (a `load_skill` result, or a user's invocation) are no
 * longer among the message texts the model gets — summarization dropped them — most recently
 * loaded first.
 */
export function droppedSkills(loaded: readonly SkillMetadata[], visibleTexts: readonly string[]): SkillMetadata[] {
  const present = skillsInTexts(visibleTexts);
  return loaded.filter((skill) => !present.has(skill.name)).reverse();
}

/**
 * Re-attaches the instructions of {@link droppedSkills}, within {@link RESTORE_LIMITS}, so that
 * "loaded" stays true after compaction.
 */
export async function restoreDroppedSkills(
  dropped: readonly SkillMetadata[],
  read: (skill: SkillMetadata) => Promise<string | undefined>,
): Promise<{ text: string; skills: string[] }> {
  const blocks: string[] = [];
  const skills: string[] = [];
  let budget: number = RESTORE_LIMITS.totalChars;
  for (const skill of dropped) {
    const content = await read(skill);
    if (content === undefined || budget <= 0) continue;
    const limit = Math.min(RESTORE_LIMITS.perSkillChars, budget);
    const body =
      content.length <= limit ? content : `${content.slice(0, limit)}\n[… cut; read ${skill.path} for the rest]`;
    budget -= body.length;
    blocks.push(`${loadedSkillMarker(skill.name)} path="${quoteForPrompt(skill.path)}">\n${body}\n</skill>`);
    skills.push(skill.name);
  }
  if (blocks.length === 0) return { text: "", skills: [] };
  return {
    text: `Instructions of loaded skills whose load_skill results are no longer in the conversation (they are still loaded; follow them):\n${blocks.join("\n")}`,
    skills,
  };
}

/** The skills whose instructions (a load result or an invocation, opening with the marker) are among `texts`. */
export function skillsInTexts(texts: readonly string[]): Set<string> {
  const present = new Set<string>();
  for (const text of texts) {
    if (!text.startsWith(MARKER)) continue;
    const end = text.indexOf('"', MARKER.length);
    if (end !== -1) present.add(text.slice(MARKER.length, end));
  }
  return present;
}
