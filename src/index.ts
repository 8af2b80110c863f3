// `skillset`: skills without a framework, framework- and runtime-free (runs wherever `node:fs`
// does not exist). Local folders and other Node-only parts are in `skillset/node`; the engine and
// the parts of a host, for writing your own, in `skillset/host`. docs/api.md lists every name.

// Errors and diagnostics.
export { SkillsetError, SkillParseError } from "./errors/skillset-error.js";
export type { SkillsetErrorCode } from "./errors/error-codes.js";
export { type Diagnostic, type DiagnosticSeverity, formatDiagnostic } from "./core/diagnostic.js";
export type { SkillsEventName, SkillsLogEntry, SkillsLogger } from "./core/skill-events.js";

// Reading and validating one SKILL.md.
export { type SkillDocument, type SkillDocumentOptions, parseSkillDocument } from "./core/skill-file/skill-document.js";
export type { YamlMode } from "./core/skill-file/frontmatter-yaml.js";
export {
  type ValidationReport,
  type SkillValidationOptions,
  validateSkillText,
} from "./core/skill-file/validate-skill.js";
export { type InspectSkillInput, type InspectSkillResult, inspectSkill } from "./core/skill-file/inspect-skill.js";
export type { SkillMetadata, SkillPackage } from "./core/skill-file/skill-metadata.js";

// Sources and the catalog that merges them.
export type { SkillSource, SkillSourceScan, SkillFile, SkillFileListing, FileListLimits } from "./core/skill-source.js";
export { type Catalog, type CatalogSnapshot, createCatalog } from "./core/catalog/catalog.js";
export { type MemorySource, type MemorySourceOptions, createMemorySource } from "./sources/memory-source.js";
export {
  type BackendSourceOptions,
  type SkillsBackend,
  type BackendFileInfo,
  createBackendSource,
} from "./sources/backend-source.js";
export { createSnapshotSource } from "./sources/snapshot/snapshot-source.js";
export type {
  SnapshotSource,
  SnapshotSourceOptions,
  SnapshotRefresh,
} from "./sources/snapshot/snapshot-source-options.js";
export type { SnapshotStore, StoreRetry } from "./sources/snapshot/snapshot-store.js";

// The catalog as the model sees it.
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
export { countTokens } from "./core/text/count-tokens.js";

// Search over large libraries.
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
export type { EmbeddingCache, EmbeddingVector } from "./core/search/text-vectors.js";

// A user's `/name args`.
export {
  type InvocableSkill,
  type SkillCommand,
  listInvocableSkills,
  parseSkillCommand,
} from "./core/instructions/skill-command.js";

// The doctor: what hurts a library.
export type { DoctorCode, DoctorSeverity, DoctorFinding } from "./core/doctor/doctor-finding.js";
export type { CatalogPlace, SkillCatalogCost, CatalogCostReport } from "./core/doctor/catalog-cost.js";
export {
  type RecordedThread,
  type DiagnoseLibraryOptions,
  type DoctorReport,
  diagnoseLibrary,
} from "./core/doctor/diagnose-library.js";

// Running skill scripts: the executor interface, and one over a deepagents sandbox.
export type { ScriptExecutor, ScriptRequest, ScriptResult } from "./exec/script-executor.js";
export { type SandboxBackend, type SandboxExecutorOptions, createSandboxExecutor } from "./exec/sandbox-executor.js";

// The text protocol, for models without tool calling (its parts are in `skillset/host`).
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
export type { InstructionOutcome } from "./core/text-protocol/run-instructions.js";
