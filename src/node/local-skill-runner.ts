import type { SkillSource } from "../core/skill-source.js";
import { createSkillRunner as createRunner, type SkillRunner, type SkillRunnerOptions } from "../core/text-protocol/skill-runner.js";
import { sourcesFromStrings } from "../sources/source-from-string.js";

/** Options of `createSkillRunner` from `skillset/node`: sources may be local folders. */
export interface LocalSkillRunnerOptions extends Omit<SkillRunnerOptions, "sources"> {
  /** Skill sources, lowest precedence first: folders (`~` allowed), `npm:` sources or `SkillSource` objects. */
  sources: ReadonlyArray<string | SkillSource>;
  /** Find skills at any depth below each folder. @default false */
  recursive?: boolean;
}

/**
 * `createSkillRunner` (from `skillset`) with local folders as sources: each string becomes a
 * `createLocalSource`. Pair it with `createLocalExecutor()` to run skill scripts.
 *
 * @example
 * ```ts
 * const runner = createSkillRunner({ sources: ["./skills"], complete, executor: createLocalExecutor() });
 * ```
 */
export function createSkillRunner(options: LocalSkillRunnerOptions): SkillRunner {
  const { sources, recursive = false, ...rest } = options;
  return createRunner({ ...rest, sources: sourcesFromStrings(sources ?? [], { recursive }) });
}
