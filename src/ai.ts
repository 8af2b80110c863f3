// Vercel AI SDK (`ai` 6 and 7) adapter: skill tools, a prepareStep and `/name args`, over the engine.
export { type Skills, createSkills } from "./ai/create-skills.js";
export type { SkillsOptions } from "./ai/skills-options.js";
export type { PrepareStepOptions, SkillsInstructions, SkillsThread } from "./ai/skills-thread.js";
export type { SkillStateStore, StoredSkillState } from "./ai/skill-state-store.js";
export type { InvocableSkill } from "./core/instructions/skill-command.js";
export type { SkillsEventName, SkillsLogEntry, SkillsLogger } from "./core/skill-events.js";
