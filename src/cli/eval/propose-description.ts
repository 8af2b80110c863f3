import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { TokenUsage } from "../chat/run-turn.js";
import type { TuneStep } from "./tune-loop.js";

/** What the model is told it is doing; the tests' scripted server tells these requests by it. */
export const PROPOSE_SYSTEM =
  "You improve the description of an Agent Skill. An AI agent sees only the names and descriptions of its skills and loads a skill when a request matches its description. " +
  "Reply with the new description alone, between <description> and </description>.";

/** The skill being tuned: its name and instructions, which say what it is for. */
export interface TunedSkill {
  name: string;
  /** The `SKILL.md` body, cut to {@link MAX_BODY_CHARACTERS}. */
  body: string;
}

/** Characters of the skill's instructions shown to the model. */
export const MAX_BODY_CHARACTERS = 4_000;

/**
 * Asks the model for a better description, showing it the current one, the train queries it
 * failed (never the validation set), the earlier attempts with their train pass rates and, when
 * the previous answer was refused, why. Returns the text between `<description>` tags, or the
 * whole answer when there are none.
 */
export async function proposeDescription(
  model: BaseChatModel,
  skill: TunedSkill,
  current: TuneStep,
  earlier: readonly TuneStep[],
  problems: readonly string[] | undefined,
  usage: TokenUsage,
): Promise<string> {
  const answer = await model.invoke([
    { role: "system", content: PROPOSE_SYSTEM },
    { role: "user", content: proposalRequest(skill, current, earlier, problems) },
  ]);
  usage.input += answer.usage_metadata?.input_tokens ?? 0;
  usage.output += answer.usage_metadata?.output_tokens ?? 0;
  const text = answer.text;
  const match = /<description>([\s\S]*?)<\/description>/.exec(text);
  return (match ? match[1]! : text).trim();
}

/** The request the model gets. */
export function proposalRequest(
  skill: TunedSkill,
  current: TuneStep,
  earlier: readonly TuneStep[],
  problems: readonly string[] | undefined,
): string {
  const missed = current.train.filter((result) => result.shouldTrigger && !result.pass);
  const wrong = current.train.filter((result) => !result.shouldTrigger && !result.pass);
  const rate = (result: TuneStep["train"][number]) => `${result.triggers}/${result.runs} runs loaded the skill`;
  const lines = [`Skill name: ${skill.name}`, "", "Current description:", current.description, ""];
  if (missed.length > 0)
    lines.push(
      "Requests it should be loaded for, where it was not:",
      ...missed.map((result) => `- ${result.query} (${rate(result)})`),
      "",
    );
  if (wrong.length > 0)
    lines.push(
      "Requests it should NOT be loaded for, where it was:",
      ...wrong.map((result) => `- ${result.query} (${rate(result)})`),
      "",
    );
  const tried = earlier.filter((step) => step.description !== current.description);
  if (tried.length > 0)
    lines.push(
      "Descriptions tried before, with the share of these test requests they got right:",
      ...tried.map((step) => `- (${step.trainPass.passed}/${step.trainPass.total}) ${step.description}`),
      "",
    );
  lines.push(
    "The skill's instructions:",
    skill.body,
    "",
    "Write a new description: say what the skill does and when to use it, in the user's terms, and what it is not for. " +
      "Generalize from the failed requests to the kind of request they stand for; do not copy their words. " +
      "At most 1024 characters, plain text, no XML tags.",
  );
  if (problems && problems.length > 0) lines.push("", `Your previous answer was refused: ${problems.join("; ")}`);
  return lines.join("\n");
}
