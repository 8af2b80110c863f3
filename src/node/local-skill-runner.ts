import type { SkillSource } from "../core/skill-source.js";
import {
  createSkillRunner as createRunner,
  type SkillRunner,
  type SkillRunnerOptions,
} from "../core/text-protocol/skill-runner.js";
import { sourcesFromStrings } from "../sources/source-from-string.js";
import { lockfileVerifier, type LockfileOption } from "./skills-lock/lockfile-verifier.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";
import { SKILL_RUNNER_OPTIONS } from "../core/text-protocol/skill-runner-options.js";
import { LOCKFILE_OPTIONS } from "./skills-lock/lockfile-verifier.js";

/** Options of {@link createLocalSkillRunner}: sources may be local folders. */
export interface LocalSkillRunnerOptions extends Omit<SkillRunnerOptions, "sources"> {
  /** Skill sources, lowest precedence first: folders (`~` allowed), `npm:` sources or `SkillSource` objects. */
  sources: ReadonlyArray<string | SkillSource>;
  /** Find skills at any depth below each folder. @default false */
  recursive?: boolean;
  /**
   * Check each skill against the `skills-lock.json` the `skills` CLI wrote when it is loaded or
   * invoked: a path (refuse skills that differ or are not listed) or `{ path, mode: "warn" }`.
   */
  lockfile?: LockfileOption;
}

const LOCAL_SKILL_RUNNER_OPTIONS = {
  ...SKILL_RUNNER_OPTIONS,
  sources: true,
  recursive: true,
  lockfile: LOCKFILE_OPTIONS,
} as const satisfies KnownOptions<LocalSkillRunnerOptions>;

/**
 * `createSkillRunner` (from `skillset`) with local folders as sources: each string becomes a
 * `createLocalSource`. Pair it with `createLocalExecutor()` to run skill scripts.
 *
 * @example
 * ```ts
 * const runner = createLocalSkillRunner({ sources: ["./skills"], complete, executor: createLocalExecutor() });
 * ```
 */
export function createLocalSkillRunner(options: LocalSkillRunnerOptions): SkillRunner {
  refuseUnknownOptions("createLocalSkillRunner", options, LOCAL_SKILL_RUNNER_OPTIONS);
  const { sources, recursive = false, lockfile, ...rest } = options;
  const verifySkill = lockfile === undefined ? {} : { verifySkill: lockfileVerifier(lockfile) };
  return createRunner({ ...rest, ...verifySkill, sources: sourcesFromStrings(sources ?? [], { recursive }) });
}
