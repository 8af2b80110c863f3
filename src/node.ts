// Node-only parts: local folders and on-disk validation.
export { type LocalSourceOptions, createLocalSource, listSkillFiles } from "./sources/local-source.js";
export { type DirectoryValidationReport, validateSkillDirectory } from "./node/validate-skill-directory.js";
export { type FindSkillDirectoriesOptions, findSkillDirectories } from "./node/find-skill-directories.js";
export { defaultSkillLocations } from "./node/default-locations.js";
export { type LocalExecutorOptions, DEFAULT_ENV_ALLOW_LIST, createLocalExecutor } from "./exec/local-executor.js";
export { type LocalSkillRunnerOptions, createSkillRunner } from "./node/local-skill-runner.js";
export { type EmbeddingCacheOptions, type EmbeddingFileCache, createEmbeddingCache } from "./node/embedding-cache.js";
