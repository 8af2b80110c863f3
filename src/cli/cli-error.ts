/**
 * Why a command failed, as `--json` reports it in `{"error":{"code","message"}}`. `usage` (a
 * command used wrongly) exits 2; every other code exits 1.
 */
export type CliErrorCode =
  | "usage"
  | "no-skills-folders"
  | "no-such-folder"
  | "not-a-folder"
  | "not-found"
  | "already-exists"
  | "cannot-create"
  | "cannot-read"
  | "missing-package"
  | "package-not-found"
  | "cannot-listen"
  | "missing-key"
  | "model-setup"
  | "provider"
  | "invalid-cases"
  | "invalid-skill"
  | "refused"
  | "invalid-lockfile"
  | "internal";

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
