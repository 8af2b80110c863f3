import type { SkillsetErrorCode } from "../errors/error-codes.js";

// Failures the library has a code for: the CLI reports them with that code, so `--json` and
// `SkillsetError` speak one vocabulary (a renamed library code fails to compile here).
const LIBRARY_CODES = [
  "not-found",
  "cannot-read",
  "cannot-listen",
  "invalid-skill",
  "invalid-lockfile",
] as const satisfies readonly SkillsetErrorCode[];

// Failures only a command line has.
const COMMAND_LINE_CODES = [
  "usage",
  "no-skills-folders",
  "no-such-folder",
  "no-skills",
  "not-a-folder",
  "already-exists",
  "cannot-create",
  "missing-package",
  "package-not-found",
  "missing-key",
  "model-setup",
  "provider",
  "invalid-cases",
  "refused",
  "internal",
] as const;

/**
 * Every code the CLI reports, in `--json`'s `{"error":{"code","message"}}`. docs/cli.md's table
 * says what each means; test/cli/error-codes.test.ts holds the table and this list to the same codes.
 */
export const CLI_ERROR_CODES = [...LIBRARY_CODES, ...COMMAND_LINE_CODES] as const;

/** Why a command failed: `usage` (a command used wrongly) exits 2, every other code exits 1. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** A failure the CLI reports as `skillset: <message>` on stderr and turns into an exit code. */
export class CliError extends Error {
  readonly code: CliErrorCode;
  readonly exitCode: 1 | 2;

  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = code === "usage" ? 2 : 1;
  }
}
