import { describe, expect, test } from "vitest";
import { MAX_MODULE_BYTES, moduleJavaScript } from "./module-javascript.js";

describe("moduleJavaScript", () => {
  test("JavaScript comes back as written", () => {
    const text = "/** Doubles. */\nexport const double = (x) => x * 2;\nexport default { double };\n";
    expect(moduleJavaScript("index.js", text)).toEqual({ source: text });
    expect(moduleJavaScript("index.mjs", text)).toEqual({ source: text });
  });

  test("TypeScript loses its types only: comments, lines, classes and modern syntax stay", () => {
    const text = [
      'import type { Row } from "./types.js";',
      "/** Totals a column. */",
      "export function total(rows: Row[], column: keyof Row): number {",
      "  return rows.reduce((sum, row) => sum + (row?.[column] ?? 0), 0);",
      "}",
      "export interface Options { limit: number }",
      "export class Counter { #count = 0; increment(): number { return ++this.#count; } }",
      "",
    ].join("\n");
    expect(moduleJavaScript("src/index.ts", text)).toEqual({
      source: [
        "",
        "/** Totals a column. */",
        "export function total(rows, column) {",
        "  return rows.reduce((sum, row) => sum + (row?.[column] ?? 0), 0);",
        "}",
        "",
        "export class Counter { #count = 0; increment() { return ++this.#count; } }",
        "",
      ].join("\n"),
    });
  });

  test(".mts is TypeScript too; .js is not, so types there are a syntax error", () => {
    expect(moduleJavaScript("lib/a.mts", "export const a: number = 1;\n")).toEqual({ source: "export const a = 1;\n" });
    expect(moduleJavaScript("lib/a.js", "export const a: number = 1;\n")).toEqual({
      error: "Syntax error in lib/a.js:1:15: Unexpected token",
    });
  });

  test.each<[string, string, string]>([
    ["index.js", "export const a = 1;\nexport const b = ;\n", "Syntax error in index.js:2:18: Unexpected token"],
    [
      "index.js",
      "const a = 1;\nlet a = 2;\n",
      "Syntax error in index.js:2:5: Identifier 'a' has already been declared",
    ],
    ["index.js", "export { missing };\n", "Syntax error in index.js:1:10: Export 'missing' is not defined"],
    ["index.js", "export function f() {\n  return 1;\n", "Syntax error in index.js:3:1: Unexpected token"],
    // CRLF files count lines as editors do.
    ["index.js", "const a = 1;\r\n\r\nconst b = ;\r\n", "Syntax error in index.js:3:11: Unexpected token"],
    // Found by sucrase while stripping: the position is in the TypeScript as written (sucrase
    // reports the end of the token before the unexpected one).
    [
      "src/index.ts",
      "export const a = 1;\nexport const b: = 2;\n",
      "Syntax error in src/index.ts:2:17: Unexpected token",
    ],
    // Found by acorn after stripping: mapped back from the JavaScript to the TypeScript.
    [
      "src/index.ts",
      "export function f(a: number, b: Map<string, number>): void {}\nconst x: string = 'a'; let x: number = 1;\n",
      "Syntax error in src/index.ts:2:28: Identifier 'x' has already been declared",
    ],
  ])("%s: %j", (path, text, error) => {
    expect(moduleJavaScript(path, text)).toEqual({ error });
  });

  test("a module over 1 MiB is refused without parsing; one at the limit is read", () => {
    const comment = (bytes: number) => `//${"x".repeat(bytes - 2)}`;
    expect(moduleJavaScript("big.js", comment(MAX_MODULE_BYTES))).toEqual({ source: comment(MAX_MODULE_BYTES) });
    expect(moduleJavaScript("big.js", comment(MAX_MODULE_BYTES + 1))).toEqual({
      error: "big.js is too large to read as a module: over 1048576 bytes (1 MiB); split it or bundle less into it",
    });
    // Counted in UTF-8 bytes: 400,000 three-byte characters are 1.2 MB in 400,000 code units.
    expect(moduleJavaScript("wide.js", `//${"€".repeat(400_000)}`)).toEqual({
      error: "wide.js is too large to read as a module: over 1048576 bytes (1 MiB); split it or bundle less into it",
    });
  });
});
