// `skillset/node`: the Node-only parts: local folders, npm packages and sites' well-known skills
// as sources, validation and packaging on disk, the local script executor and runner, and the
// `skills-lock.json` checks. docs/api.md lists every name.
export { type LocalSourceOptions, createLocalSource } from "./sources/local-source.js";
export { defaultSkillLocations } from "./node/default-locations.js";
export { type NpmSourceOptions, createNpmSource } from "./sources/npm-source.js";
export { type WellKnownSourceOptions, createWellKnownSource } from "./sources/well-known/well-known-source.js";
export type { FetchFunction } from "./sources/well-known/fetch-function.js";
export { type DirectoryValidationReport, validateSkillDirectory } from "./node/validate-skill-directory.js";
export { type PackagedSkill, type PackageSkillOptions, packageSkill } from "./node/package-skill.js";
export { type LocalExecutorOptions, DEFAULT_ENV_ALLOW_LIST, createLocalExecutor } from "./exec/local-executor.js";
export { type LocalSkillRunnerOptions, createLocalSkillRunner } from "./node/local-skill-runner.js";
export {
  type CodeSandboxPool,
  type CodeSandboxPoolOptions,
  createCodeSandboxPool,
} from "./exec/code-sandbox/code-sandbox-pool.js";
export {
  type VerifySkillsLockOptions,
  type SkillsLockReport,
  type LockedSkillCheck,
  type InstalledSkillCheck,
  verifySkillsLock,
} from "./node/skills-lock/verify-skills-lock.js";
export type { ChangedFiles } from "./node/skills-lock/compare-with-lock.js";
export { type LockfileOption, lockfileVerifier } from "./node/skills-lock/lockfile-verifier.js";
export { type SkillFolderDigest, digestSkillFolder } from "./node/skills-lock/skill-folder-hash.js";
export { type EmbeddingCacheOptions, type EmbeddingFileCache, createEmbeddingCache } from "./node/embedding-cache.js";
