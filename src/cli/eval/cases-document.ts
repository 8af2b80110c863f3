import { parseDocument } from "yaml";
import { CliError } from "../cli-error.js";

/** One `invalid-cases` error naming `file` and each of its problems. */
export function invalidCases(file: string, problems: string[]): CliError {
  const message =
    problems.length === 1
      ? `${file}: ${problems[0]}`
      : `${file} has ${problems.length} problems:\n${problems.map((problem) => `  ${problem}`).join("\n")}`;
  return new CliError("invalid-cases", message);
}

/**
 * A cases file's text (JSON or YAML, keys unique) as plain data, or an `invalid-cases` error
 * naming `file`: the parser's first line says what and where ("… at line 1, column 2").
 */
export function parseCasesDocument(text: string, file: string): unknown {
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0)
    throw invalidCases(file, [document.errors[0]!.message.split("\n")[0]!.replace(/:$/, "")]);
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw invalidCases(file, [(error as Error).message]);
  }
}
