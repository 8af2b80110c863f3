import { CliError } from "../cli-error.js";
import { installCommand } from "./install-command.js";

/**
 * Runs `load` (a dynamic `import()` of an optional dependency, or of a module that imports
 * some). When a package is not installed, throws a one-line {@link CliError} `missing-package`
 * naming it and the install command, e.g. `--model anthropic:… needs the package
 * @langchain/anthropic, which is not installed: npm install @langchain/anthropic` (with `-g`
 * when skillset is installed globally). `purpose` says what needs it; `expected` is the package
 * named when Node's error names none.
 */
export async function importOptional<T>(load: () => Promise<T>, purpose: string, expected: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error, expected);
    if (missing === undefined) throw error;
    throw new CliError(
      "missing-package",
      `${purpose} needs the package ${missing}, which is not installed: ${installCommand([missing])}`,
    );
  }
}

/** The package an import failed to find, or `undefined` when `error` is not a missing module. */
export function missingPackage(error: unknown, expected: string): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  // Node names the package it could not find; a path there means a file of an installed package is missing.
  const named = /Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error).message))?.[1];
  if (!named || !/^[@\w]/.test(named)) return expected;
  const parts = named.split("/");
  return named.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}
