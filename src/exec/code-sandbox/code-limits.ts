import { SkillsetError } from "../../errors/skillset-error.js";

/** What one run of the model's code may use; each limit, when hit, ends the run with its own error kind. */
export interface CodeLimits {
  /** Memory the sandbox's JavaScript heap may hold, in bytes. @default 67108864 (64 MiB) */
  memoryBytes: number;
  /** Wall-clock time per run in milliseconds, time spent awaiting tools and imports included. @default 5000 */
  timeoutMs: number;
  /** Calls to `tools.<name>(…)` per run. @default 256 */
  maxToolCalls: number;
  /** Characters of text the model reads back (logs plus the returned value's JSON); more is cut with a note. @default 20000 */
  maxResultChars: number;
}

/** The limits a run gets when the app sets none. */
export const DEFAULT_CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  memoryBytes: 64 * 1024 * 1024,
  timeoutMs: 5000,
  maxToolCalls: 256,
  maxResultChars: 20_000,
});

// Below these a sandbox cannot even start its prelude, so the run would fail for a reason the model cannot fix.
const MINIMUM: Readonly<CodeLimits> = { memoryBytes: 1024 * 1024, timeoutMs: 1, maxToolCalls: 0, maxResultChars: 100 };
// WASM32 heaps end at 4 GiB; a longer timer than 24 days overflows setTimeout.
const MAXIMUM: Readonly<CodeLimits> = {
  memoryBytes: 2 ** 31,
  timeoutMs: 2 ** 31 - 1,
  maxToolCalls: 1_000_000,
  maxResultChars: 100_000_000,
};

/**
 * The defaults with the app's overrides applied, each checked.
 * @throws SkillsetError `invalid-options` naming the limit, when one is not an integer within its range.
 */
export function resolveCodeLimits(overrides: Partial<CodeLimits> = {}): CodeLimits {
  const limits: CodeLimits = { ...DEFAULT_CODE_LIMITS };
  for (const key of Object.keys(DEFAULT_CODE_LIMITS) as (keyof CodeLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < MINIMUM[key] || value > MAXIMUM[key]) {
      throw new SkillsetError(
        "invalid-options",
        `Code limit ${key} must be an integer from ${MINIMUM[key]} to ${MAXIMUM[key]}; got ${String(value)}.`,
      );
    }
    limits[key] = value;
  }
  const unknown = Object.keys(overrides).filter((key) => !(key in DEFAULT_CODE_LIMITS));
  if (unknown.length > 0) {
    throw new SkillsetError(
      "invalid-options",
      `Unknown code limit ${unknown.join(", ")}; the limits are ${Object.keys(DEFAULT_CODE_LIMITS).join(", ")}.`,
    );
  }
  return limits;
}
