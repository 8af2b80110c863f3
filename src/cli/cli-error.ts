/** A failure the CLI reports on stderr and turns into an exit code: 1 for user errors, 2 for usage errors. */
export class CliError extends Error {
  readonly exitCode: 1 | 2;

  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
