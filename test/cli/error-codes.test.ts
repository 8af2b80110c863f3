import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI_ERROR_CODES, CliError } from "../../src/cli/cli-error.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

// The rows of docs/cli.md's table of `--json` error codes: code and exit code.
function documentedCodes(): Array<{ code: string; exit: number }> {
  const page = readFileSync(join(root, "docs/cli.md"), "utf8");
  const start = page.indexOf("| code | exit | when |", page.indexOf("## Exit codes and errors"));
  const table = page.slice(start, page.indexOf("\n\n", start));
  return [...table.matchAll(/^\| `([^`]+)` \| (\d) \|/gm)].map((row) => ({ code: row[1]!, exit: Number(row[2]) }));
}

describe("the CLI's error codes", () => {
  it("docs/cli.md's table lists exactly the codes of CLI_ERROR_CODES, each once, with its exit code", () => {
    const rows = documentedCodes();
    expect(rows.map((row) => row.code).sort()).toEqual([...CLI_ERROR_CODES].sort());
    for (const { code, exit } of rows) expect([code, exit]).toEqual([code, new CliError(code as never, "").exitCode]);
  });

  it("every code is one the CLI can print: each is written where a CliError is made, outside the list itself", () => {
    const folder = join(root, "src/cli");
    const sources = readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== "cli-error.ts")
      .map((file) => readFileSync(join(folder, file), "utf8"))
      .filter((text) => text.includes("CliError"))
      .join("\n");
    expect(CLI_ERROR_CODES.filter((code) => !sources.includes(`"${code}"`))).toEqual([]);
  });
});
