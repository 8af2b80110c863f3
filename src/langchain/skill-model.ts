import type { LanguageModelLike } from "@langchain/core/language_models/base";
import { emitSkillsEvent, type SkillsLogger } from "../core/skill-events.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";

/**
 * The chat models skills may name in `model:`: a record by name, or a function returning the
 * model for a name (or `undefined` when it has none).
 */
export type SkillModels = Record<string, LanguageModelLike> | ((name: string) => LanguageModelLike | undefined);

/** Claude Code's `model: inherit`: the skill keeps the agent's model. */
const INHERIT = "inherit";

/**
 * Picks the model for a call from the loaded skills: the most recently loaded skill that names a
 * model decides. A name `models` does not know keeps the agent's model, and is reported once per
 * skill and name (not on every call).
 */
export function createSkillModelSelector(models: SkillModels, logger: SkillsLogger | undefined) {
  const lookup =
    typeof models === "function" ? models : (name: string) => (Object.hasOwn(models, name) ? models[name] : undefined);
  const reported = new Set<string>();
  return (loaded: readonly SkillMetadata[], emit: SkillsLogger | undefined): LanguageModelLike | undefined => {
    const skill = loaded.findLast((entry) => entry.model !== undefined && entry.model !== INHERIT);
    if (!skill) return undefined;
    const name = skill.model!;
    const model = lookup(name);
    if (model !== undefined) return model;
    const key = `${skill.name}\0${name}`;
    if (!reported.has(key)) {
      reported.add(key);
      emitSkillsEvent(logger, emit, {
        level: "warn",
        event: "skill_model_unknown",
        message: `Skill '${skill.name}' names the model '${name}', which the agent does not have (option models); the agent's model answers instead`,
        skill: skill.name,
        model: name,
      });
    }
    return undefined;
  };
}
