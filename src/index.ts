// Framework- and runtime-free core: runs wherever `node:fs` does not exist.
export { SkillsetError, SkillParseError } from "./core/errors.js";
export type { SkillsetErrorCode } from "./core/error-codes.js";
export { type Diagnostic, type DiagnosticSeverity, formatDiagnostic } from "./core/diagnostic.js";
export { type SkillDocument, parseSkillDocument } from "./core/skill-file/skill-document.js";
export type { YamlMode } from "./core/skill-file/frontmatter-yaml.js";
export {
  SPEC_FIELDS,
  CLAUDE_CODE_FIELDS,
  MAX_NAME_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_COMPATIBILITY_LENGTH,
  type FrontmatterValidationOptions,
  validateFrontmatter,
} from "./core/skill-file/validate-frontmatter.js";
export {
  type ValidationReport,
  type SkillValidationOptions,
  validateSkillText,
} from "./core/skill-file/validate-skill.js";
export { type InspectSkillInput, type InspectSkillResult, inspectSkill } from "./core/skill-file/inspect-skill.js";
export { parseAllowedTools } from "./core/skill-file/allowed-tools.js";
export { type SkillMetadata, type SkillPackage, skillDirectory } from "./core/skill-file/skill-metadata.js";
export {
  MAX_SKILL_FILE_BYTES,
  type SkillSource,
  type SkillSourceScan,
  type SkillFile,
  type SkillFileListing,
  type FileListLimits,
} from "./core/skill-source.js";
export { type Catalog, type CatalogSnapshot, createCatalog } from "./core/catalog/catalog.js";
export { collectSkills, inspectSkillFile } from "./core/catalog/collect-skills.js";
export {
  type ResourceType,
  type SkillResource,
  type ResourceDiscovery,
  DEFAULT_RESOURCE_LIMITS,
  classifyResource,
  discoverResources,
  summarizeResources,
} from "./core/resources/skill-resources.js";
export {
  CATALOG_GUIDANCE,
  type MarkdownCatalogOptions,
  renderCatalogMarkdown,
} from "./core/catalog/prompt-markdown.js";
export { renderCatalogXml } from "./core/catalog/prompt-xml.js";
export {
  type CatalogRenderOptions,
  type RenderedCatalog,
  DEFAULT_CATALOG_BUDGET,
  renderCatalog,
} from "./core/catalog/render-catalog.js";
export {
  type SkillRanker,
  type RankedSkill,
  type EmbedTexts,
  type LexicalRankerOptions,
  type RelevanceFloor,
  DEFAULT_RELEVANCE_FLOOR,
  createLexicalRanker,
  fuseRankings,
} from "./core/search/skill-search.js";
export {
  type EmbeddingRankerOptions,
  type EmbeddingsLike,
  createEmbeddingRanker,
} from "./core/search/embedding-ranker.js";
export { type EmbeddingCache, type EmbeddingVector } from "./core/search/text-vectors.js";
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
  applySkillOperations,
  createSkillEngine,
} from "./core/engine/skill-engine.js";
export {
  type InvocableSkill,
  type SkillCommand,
  listInvocableSkills,
  parseSkillCommand,
} from "./core/instructions/skill-command.js";
export { type SkillOperation, applyToLoaded, applyToResources } from "./core/loaded/skill-operations.js";
export type { InheritedSkills } from "./core/loaded/inherit-skills.js";
export type { SkillCall } from "./core/loaded/plan-skill-calls.js";
export type { SkillsEventName, SkillsLogEntry, SkillsLogger } from "./core/skill-events.js";
export {
  type RenderInstructionsContext,
  type DynamicCommandResult,
  type DynamicCommandRunner,
  renderInstructions,
} from "./core/instructions/render-instructions.js";
export { splitArguments } from "./core/instructions/skill-arguments.js";
export { type MemorySource, type MemorySourceOptions, createMemorySource } from "./sources/memory-source.js";
export { countTokens } from "./core/text/count-tokens.js";
export { type DoctorCode, type DoctorSeverity, type DoctorFinding } from "./core/doctor/doctor-finding.js";
export { type CatalogPlace, type SkillCatalogCost, type CatalogCostReport } from "./core/doctor/catalog-cost.js";
export { RECOMMENDED_BODY_LIMITS } from "./core/doctor/lint-skill.js";
export {
  type RecordedThread,
  type DiagnoseLibraryOptions,
  type DoctorReport,
  diagnoseLibrary,
} from "./core/doctor/diagnose-library.js";
export {
  type BackendSourceOptions,
  type SkillsBackend,
  type BackendFileInfo,
  createBackendSource,
} from "./sources/backend-source.js";
export type { ScriptExecutor, ScriptRequest, ScriptResult } from "./exec/script-executor.js";
export { type ParsedCommand, parseCommand } from "./exec/parse-command.js";
export { DEFAULT_ALLOWED_COMMANDS, isCommandAllowed } from "./exec/command-allow-list.js";
export { type CheckedResourcePath, checkResourcePath } from "./core/resources/resource-path.js";
export { MAX_RESOURCE_BYTES } from "./core/resources/read-resource.js";
export type { AllowedToolsPolicy } from "./core/tools/tool-policy.js";
export {
  INCLUDE_TOOLS_KEY,
  disclosedTools,
  includedTools,
  skillToolsNote,
  undisclosedToolMessage,
} from "./core/tools/included-tools.js";
export { type SandboxBackend, type SandboxExecutorOptions, createSandboxExecutor } from "./exec/sandbox-executor.js";
export {
  type TextMessage,
  type TextCompletion,
  type RunSignal,
  type SkillRunner,
  type SkillRunnerOptions,
  type SkillRunOptions,
  type SkillRunResult,
  type SkillRunTrace,
  type SkillRunStep,
  createSkillRunner,
} from "./core/text-protocol/skill-runner.js";
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
  type InstructionOutcome,
  type InstructionRound,
  type RunInstructionsOptions,
  runSkillInstructions,
} from "./core/text-protocol/run-instructions.js";
