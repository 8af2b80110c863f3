import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { stringify } from "yaml";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { TokenUsage } from "../chat/run-turn.js";

/** Requests drafted per skill, and requests drafted that no skill should handle. */
export const DRAFTS_PER_SKILL = 2;
export const DRAFTS_WITHOUT_SKILL = 3;

const SYSTEM =
  "You write test cases for an AI agent that picks skills by their descriptions. Reply with a JSON array of strings and nothing else.";

/** Cases drafted from the skills' descriptions, as the text of a cases file. */
export interface DraftedCases {
  text: string;
  cases: number;
  usage: TokenUsage;
  /** Skills the model gave no usable requests for (their cases are placeholders to write). */
  placeholders: string[];
}

/**
 * Asks the model for realistic user requests: {@link DRAFTS_PER_SKILL} that each skill is meant
 * for, and {@link DRAFTS_WITHOUT_SKILL} near the skills' topics that none of them is meant for.
 * Every case is marked `draft: true`, and the file says to review them: the model wrote them, so
 * they measure nothing until a person has checked them.
 */
export async function draftCases(
  model: BaseChatModel,
  skills: readonly SkillMetadata[],
  modelName: string,
): Promise<DraftedCases> {
  const usage: TokenUsage = { input: 0, output: 0 };
  const placeholders: string[] = [];
  const ask = async (prompt: string, count: number): Promise<string[] | undefined> => {
    const answer = await model.invoke([
      { role: "system", content: SYSTEM },
      { role: "user", content: prompt },
    ]);
    usage.input += answer.usage_metadata?.input_tokens ?? 0;
    usage.output += answer.usage_metadata?.output_tokens ?? 0;
    return requestsIn(answer.text, count);
  };

  const cases: Array<{ id: string; request: string; expected: string; draft: true }> = [];
  const selectable = skills.filter((skill) => !skill.disableModelInvocation);
  for (const skill of selectable) {
    const prompt =
      `Skill name: ${skill.name}\nDescription: ${skill.description}\n\n` +
      `Write ${DRAFTS_PER_SKILL} different requests a user might type to an assistant that this skill is meant for. ` +
      "Make them realistic and specific, vary the wording, and do not mention the skill's name.";
    const requests = await ask(prompt, DRAFTS_PER_SKILL);
    if (!requests) placeholders.push(skill.name);
    (requests ?? [`TODO: a request that should load ${skill.name}`]).forEach((request, index) =>
      cases.push({ id: `${skill.name}-${index + 1}`, request, expected: skill.name, draft: true }),
    );
  }
  if (selectable.length > 0) {
    const catalog = selectable.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
    const prompt =
      `Skills:\n${catalog}\n\nWrite ${DRAFTS_WITHOUT_SKILL} requests a user might type to an assistant that none of these skills is meant for, ` +
      "close to their topics, so that loading a skill for them would be a mistake.";
    const requests = await ask(prompt, DRAFTS_WITHOUT_SKILL);
    if (!requests) placeholders.push("(no skill)");
    (requests ?? ["TODO: a request that no skill should handle"]).forEach((request, index) =>
      cases.push({ id: `no-skill-${index + 1}`, request, expected: "none", draft: true }),
    );
  }

  const header = [
    `# Skill-selection cases DRAFTED by \`skillset eval --generate\` with ${modelName} from the skills' descriptions.`,
    "# They are drafts: read every case, fix the requests and expected skills, add the cases that",
    "# matter to you, then delete `draft: true`. Run them with: skillset eval <this file> [sources...] --model …",
  ].join("\n");
  return { text: `${header}\n${stringify({ cases }, { lineWidth: 0 })}`, cases: cases.length, usage, placeholders };
}

// The first JSON array of strings in a reply (models wrap it in prose or a code fence), at most `count` of them.
function requestsIn(text: string, count: number): string[] | undefined {
  const start = text.indexOf("[");
  const end = text.lastIndexOf("]");
  if (start === -1 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    if (!Array.isArray(value)) return undefined;
    const requests = value
      .filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "")
      .map((entry) => entry.trim());
    return requests.length > 0 ? requests.slice(0, count) : undefined;
  } catch {
    return undefined;
  }
}
