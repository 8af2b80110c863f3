// LangChain.js v1 / deepagents adapter.
export {
  ALWAYS_ALLOWED_TOOLS,
  SKILLS_MIDDLEWARE_NAME,
  type SkillsMiddlewareOptions,
  createSkillsMiddleware,
} from "./langchain/skills-middleware.js";
export {
  type DeepAgentSkillParams,
  type WithSkillset,
  type WithSkillsetOptions,
  withSkillset,
} from "./langchain/with-skillset.js";
export type { PinnedSkill } from "./langchain/skills-state.js";
export type { SkillToolsOption, SkillToolsResolver } from "./langchain/skill-tools.js";
export type { SkillsEventName, SkillsLogEntry, SkillsLogger } from "./core/skill-events.js";
export type { SkillModels } from "./langchain/skill-model.js";
export type { CompiledForkAgent, ForkAgentSpec, ForkAgents } from "./langchain/skill-fork.js";
export { RESTORE_LIMITS } from "./core/loaded/restore-dropped-skills.js";
export { type ChatModelLike, createChatModelComplete } from "./langchain/text-protocol-complete.js";
