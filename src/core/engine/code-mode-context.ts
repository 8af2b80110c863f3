import type { KnownOptions } from "../../errors/known-options.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { resolveCodeLimits, type CodeLimits } from "../../exec/code-sandbox/code-limits.js";
import type { CodeSandboxPool } from "../../exec/code-sandbox/code-sandbox-pool.js";
import type { CodeModeOptions } from "./code-mode-types.js";

/** The keys of a run's limits, for the factories that refuse unknown option keys. */
export const CODE_LIMITS_OPTIONS = {
  memoryBytes: true,
  timeoutMs: true,
  maxToolCalls: true,
  maxResultChars: true,
} as const satisfies KnownOptions<CodeLimits>;

/** The keys of {@link CodeModeOptions}. */
export const CODE_MODE_OPTIONS = {
  tools: true,
  limits: CODE_LIMITS_OPTIONS,
  keepValues: true,
  pool: true,
} as const satisfies KnownOptions<CodeModeOptions>;

/** Code mode's options resolved once per engine: the limits, checked up front, and the pool, made on first use. */
export interface CodeModeContext {
  readonly limits: CodeLimits;
  /** The pool runs go to; the WebAssembly sandbox is loaded only when code first runs. */
  pool(): Promise<CodeSandboxPool>;
  /** The pool if one exists yet (given, or made by a run). */
  existingPool(): CodeSandboxPool | undefined;
  /** The prompt's lines about a module, by its skill, path and text (see `codeModulesSection`). */
  readonly exportLines: Map<string, string>;
}

/**
 * Checks `options` and prepares the pool; `undefined` when code mode is off.
 * @throws SkillsetError `invalid-options` for a limit out of range, or limits given beside a pool.
 */
export function createCodeModeContext(options: CodeModeOptions | undefined): CodeModeContext | undefined {
  if (options === undefined) return undefined;
  const given = options.pool;
  if (given && (options.limits !== undefined || options.keepValues !== undefined))
    throw new SkillsetError(
      "invalid-options",
      "codeMode: give limits and keepValues to the pool you pass (createCodeSandboxPool), not beside it.",
    );
  const tools = options.tools ?? [];
  if (tools !== "all" && (!Array.isArray(tools) || tools.some((tool) => typeof tool !== "string")))
    throw new SkillsetError("invalid-options", 'codeMode.tools must be an array of tool names or "all".');
  const limits = given ? given.limits : resolveCodeLimits(options.limits);
  let made: Promise<CodeSandboxPool> | undefined;
  let pool: CodeSandboxPool | undefined = given;
  return {
    limits,
    // Imported only here, so an app without code mode never loads the sandbox's WebAssembly package.
    pool: () =>
      given
        ? Promise.resolve(given)
        : (made ??= import("../../exec/code-sandbox/code-sandbox-pool.js").then(({ createCodeSandboxPool }) => {
            pool = createCodeSandboxPool({
              limits,
              ...(options.keepValues !== undefined ? { keepValues: options.keepValues } : {}),
            });
            return pool;
          })),
    existingPool: () => pool,
    exportLines: new Map(),
  };
}
