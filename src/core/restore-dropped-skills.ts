import type { SkillMetadata } from "../core/skill-metadata.js";
import { quoteForPrompt } from "../core/safe-text.js";
import { loadedSkillMarker } from "../core/skill-tool-messages.js";

/** Bounds of what is re-attached, as other agents bound it: per skill and in total. */
export const RESTORE_LIMITS = { perSkillChars: 20_000, totalChars: 50_000 } as const;

const MARKER = '<skill name="';

/**
 * Decision 6: a skill that is still loaded but whose `load_skill` result is no longer among the
 * messages the model gets (summarization dropped it) has its instructions re-attached, most
 * recently loaded first, within {@link RESTORE_LIMITS}.
 */
export async function restoreDroppedSkills(
  loaded: readonly SkillMetadata[],
  messages: readonly unknown[],
  read: (skill: SkillMetadata) => Promise<string | undefined>,
): Promise<{ text: string; skills: string[] }> {
  const present = skillsInMessages(messages);
  const dropped = loaded.filter((skill) => !present.has(skill.name)).reverse();
  if (dropped.length === 0) return { text: "", skills: [] };
  const blocks: string[] = [];
  const skills: string[] = [];
  let budget: number = RESTORE_LIMITS.totalChars;
  for (const skill of dropped) {
    const content = await read(skill);
    if (content === undefined || budget <= 0) continue;
    const limit = Math.min(RESTORE_LIMITS.perSkillChars, budget);
    const body = content.length <= limit ? content : `${content.slice(0, limit)}\n[… cut; read ${skill.path} for the rest]`;
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

function skillsInMessages(messages: readonly unknown[]): Set<string> {
  const present = new Set<string>();
  for (const message of messages) {
    const { type, content } = message as { type?: string; content?: unknown };
    if (type !== "tool" || typeof content !== "string" || !content.startsWith(MARKER)) continue;
    const end = content.indexOf('"', MARKER.length);
    if (end !== -1) present.add(content.slice(MARKER.length, end));
  }
  return present;
}
