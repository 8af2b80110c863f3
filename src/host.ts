// `skillset/host`: the parts of a host, for people writing their own (another agent framework,
// their own loop). skillset's own hosts (`skillset/langchain`, `skillset/ai`, `skillset/mcp`) are
// built from these; see docs/api.md. Framework- and runtime-free, like `skillset`.

// The engine: the skill lifecycle; a host translates its framework's calls and state to it.
export {
  type SkillEngine,
  type SkillEngineOptions,
  type SkillVerification,
  type SkillThreadState,
  type SkillRequest,
  type SkillFileTools,
  type SkillStep,
  type SkillFork,
  type SkillReply,
  type SkillSearchReply,
  type SkillSearchResult,
  type SkillInvocation,
  type CatalogRefresh,
  type CodeModeOptions,
  type CodeTool,
  type CodeTools,
  type CodeToolContext,
  type CodeReply,
  createSkillEngine,
} from "./core/engine/skill-engine.js";
export type { CodeLimits } from "./exec/code-sandbox/code-limits.js";
export type {
  CodeRunErrorKind,
  CodeRunHost,
  CodeRunOutcome,
  CodeRunReport,
} from "./exec/code-sandbox/code-run-outcome.js";
export type { SkillCall } from "./core/loaded/plan-skill-calls.js";
export type { InheritedSkills } from "./core/loaded/inherit-skills.js";
export type { AllowedToolsPolicy } from "./core/tools/tool-policy.js";
export type { SkillLocation } from "./core/skill-file/skill-metadata.js";

// A thread's loaded skills change only through operations the engine returns.
export { applySkillOperations } from "./core/engine/skill-engine.js";
export { type SkillOperation, applyToLoaded, applyToResources } from "./core/loaded/skill-operations.js";
export type { ResourceType, SkillResource } from "./core/resources/skill-resources.js";
export { type CheckedResourcePath, checkResourcePath } from "./core/resources/resource-path.js";
export { skillDirectory } from "./core/skill-file/skill-metadata.js";

// Tools that loaded skills bring (`metadata.include_tools`).
export {
  INCLUDE_TOOLS_KEY,
  disclosedTools,
  includedTools,
  skillToolsNote,
  undisclosedToolMessage,
} from "./core/tools/included-tools.js";

// The model-facing tools, one data definition each: a host builds its framework's tools from these.
export {
  LOAD_SKILL,
  UNLOAD_SKILL,
  SEARCH_SKILLS,
  READ_SKILL_RESOURCE,
  RUN_SKILL_SCRIPT,
  SKILL_TOOL_DEFINITIONS,
  type SkillToolName,
  RUN_CODE,
} from "./core/tools/skill-tool-definitions.js";
export type {
  SkillToolDefinition,
  TextProtocolInstruction,
  ToolDefinition,
} from "./core/tools/skill-tool-definition.js";
export { codeToolName } from "./core/tools/code-tool-names.js";

// The text protocol's parts, for a host with its own loop (`createSkillRunner` assembles them).
export {
  type SkillInstruction,
  type ParsedReply,
  parseSkillInstructions,
} from "./core/text-protocol/parse-instructions.js";
export {
  type TextProtocolPrompt,
  type TextProtocolPromptOptions,
  renderTextProtocolPrompt,
} from "./core/text-protocol/text-protocol-prompt.js";
export {
  type InstructionRound,
  type RunInstructionsOptions,
  runSkillInstructions,
} from "./core/text-protocol/run-instructions.js";
