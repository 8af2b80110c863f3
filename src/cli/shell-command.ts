// Characters that mean nothing to a POSIX shell, so an argument made only of them needs no quotes.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A command line a user can paste into a POSIX shell to run `skillset` with `args` then
 * `operands` (paths); used for hints, which must work as printed. An operand that starts with
 * `-` is put after `--`, so it is not read as an option.
 */
export function shellCommand(args: string[], operands: string[] = []): string {
  const separator = operands.some((operand) => operand.startsWith("-")) ? ["--"] : [];
  return ["skillset", ...args, ...separator, ...operands].map(quoteArgument).join(" ");
}

function quoteArgument(arg: string): string {
  return PLAIN.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
