import { describe, expect, test } from "vitest";
import { MAX_MODULE_BYTES } from "./module-javascript.js";
import { moduleExports, type ModuleExport } from "./module-exports.js";

const exportsOf = (path: string, lines: string[]) => moduleExports(path, lines.join("\n"));

describe("moduleExports: each form of export", () => {
  test.each<[string, string[], ModuleExport[]]>([
    [
      "export function",
      ["export function add(a, b = 1) { return a + b; }"],
      [{ name: "add", kind: "function", signature: "add(a, b = 1)" }],
    ],
    [
      "export async function and generator",
      ["export async function load(url) {}", "export function* rows() {}"],
      [
        { name: "load", kind: "function", signature: "async load(url)" },
        { name: "rows", kind: "function", signature: "*rows()" },
      ],
    ],
    [
      "export const: arrow, function expression, value",
      ["export const twice = (x) => x * 2, f = function (y, ...rest) {}, limit = 10;"],
      [
        { name: "twice", kind: "function", signature: "twice(x)" },
        { name: "f", kind: "function", signature: "f(y, ...rest)" },
        { name: "limit", kind: "constant" },
      ],
    ],
    [
      "export let / var",
      ["export let count = 0;", "export var total;"],
      [
        { name: "count", kind: "variable" },
        { name: "total", kind: "variable" },
      ],
    ],
    [
      "export const with destructuring",
      ["export const { a, b: [c, ...d], e = 1 } = source();"],
      [
        { name: "a", kind: "constant" },
        { name: "c", kind: "constant" },
        { name: "d", kind: "constant" },
        { name: "e", kind: "constant" },
      ],
    ],
    [
      "export class",
      ["export class Table { constructor(rows, { strict } = {}) {} }", "export class Empty {}"],
      [
        { name: "Table", kind: "class", signature: "new Table(rows, { strict } = {})" },
        { name: "Empty", kind: "class", signature: "new Empty()" },
      ],
    ],
    [
      "export { a as b } of local declarations",
      ["function sum(xs) {}", "class Box {}", "const pi = 3.14;", "export { sum as total, Box, pi as 'π' };"],
      [
        { name: "total", kind: "function", signature: "total(xs)" },
        { name: "Box", kind: "class", signature: "new Box()" },
        { name: "π", kind: "constant" },
      ],
    ],
    [
      "an imported name exported again",
      [
        'import { parse as parseCsv } from "./csv.js";',
        'import * as path from "./path.js";',
        "export { parseCsv, path };",
      ],
      [
        { name: "parseCsv", kind: "re-export", from: "./csv.js" },
        { name: "path", kind: "re-export", from: "./path.js" },
      ],
    ],
    [
      "export ... from",
      [
        'export { parse, format as print, default as csv } from "./csv.js";',
        'export * from "./util.js";',
        'export * as fs from "./fs.js";',
      ],
      [
        { name: "parse", kind: "re-export", from: "./csv.js" },
        { name: "print", kind: "re-export", from: "./csv.js" },
        { name: "csv", kind: "re-export", from: "./csv.js" },
        { name: "*", kind: "re-export", from: "./util.js" },
        { name: "fs", kind: "namespace", from: "./fs.js" },
      ],
    ],
    [
      "export default function, named",
      ["export default function report(rows) {}"],
      [{ name: "default", kind: "function", signature: "report(rows)" }],
    ],
    [
      "export default anonymous function",
      ["export default async (x) => x;"],
      [{ name: "default", kind: "function", signature: "async default(x)" }],
    ],
    [
      "export default class",
      ["export default class { constructor(a) {} }"],
      [{ name: "default", kind: "class", signature: "new default(a)" }],
    ],
    [
      "export default of a local name",
      ["const run = (task) => task;", "export default run;"],
      [{ name: "default", kind: "function", signature: "run(task)" }],
    ],
    ["export default of a value", ["export default { version: 1 };"], [{ name: "default", kind: "value" }]],
    ["no exports", ["console.log('side effect');"], []],
  ])("%s", (_, lines, expected) => {
    expect(exportsOf("index.js", lines)).toEqual({ exports: expected });
  });
});

describe("moduleExports: TypeScript", () => {
  test("parameter and return types as written; types and interfaces are not exports", () => {
    const result = exportsOf("src/index.ts", [
      'import type { Row } from "./types.js";',
      "export interface Options { limit: number }",
      "export type Id = string;",
      "export function add(a: number, b?: { x: string; y: Array<Map<string, number>> }, ...rest: string[]): number {",
      "  return a;",
      "}",
      "export const summarize = async (rows: Row[], { limit = 10 }: Options = { limit: 3 }): Promise<string> => '';",
      "export function shape(): { width: number; height: number } { return { width: 1, height: 2 }; }",
      "export function generic<T extends (x: number) => void = () => void>(callback: T, label = `a${(1)}`): asserts callback is T {}",
      "export const bound = function (this: Window, y: number) { return y; };",
      "export const plain = x => x;",
      "export default class Report<T> {",
      "  constructor(public title: string, private rows: T[] = []) {}",
      "}",
      "export declare function declared(a: string): void;",
      "export enum Color { Red, Green }",
    ]);
    expect(result).toEqual({
      exports: [
        {
          name: "add",
          kind: "function",
          signature: "add(a: number, b?: { x: string; y: Array<Map<string, number>> }, ...rest: string[]): number",
        },
        {
          name: "summarize",
          kind: "function",
          signature: "async summarize(rows: Row[], { limit = 10 }: Options = { limit: 3 }): Promise<string>",
        },
        { name: "shape", kind: "function", signature: "shape(): { width: number; height: number }" },
        {
          name: "generic",
          kind: "function",
          signature: "generic(callback: T, label = `a${(1)}`): asserts callback is T",
        },
        // `this` is not a parameter a caller passes.
        { name: "bound", kind: "function", signature: "bound(y: number)" },
        { name: "plain", kind: "function", signature: "plain(x)" },
        { name: "default", kind: "class", signature: "new Report(public title: string, private rows: T[] = [])" },
        // An enum is a value at run time (an object), so it is listed.
        { name: "Color", kind: "variable" },
      ],
    });
  });

  test("overloads: the implementation's parameters, without its body's types", () => {
    expect(
      exportsOf("a.mts", [
        "export function pick(key: string): string;",
        "export function pick(key: number): number;",
        "export function pick(key: string | number): string | number { return key; }",
      ]),
    ).toEqual({
      exports: [{ name: "pick", kind: "function", signature: "pick(key: string | number): string | number" }],
    });
  });

  test("what the signature reader cannot follow (`<` in a default value) falls back to names", () => {
    expect(exportsOf("a.ts", ["export function below(limit: number, flag = limit < 2) {}"])).toEqual({
      exports: [{ name: "below", kind: "function", signature: "below(limit, flag = limit < 2)" }],
    });
  });

  test("a template literal earlier in the file does not lose the types after it", () => {
    expect(
      exportsOf("a.ts", [
        "export const greet = (name: string): string => `${name}`;",
        "export function after(n: number): void {}",
      ]),
    ).toEqual({
      exports: [
        { name: "greet", kind: "function", signature: "greet(name: string): string" },
        { name: "after", kind: "function", signature: "after(n: number): void" },
      ],
    });
  });

  test("parameter decorators are not TypeScript sucrase strips: a syntax error", () => {
    expect(
      exportsOf("a.ts", ["export class Service {", "  constructor(@Inject() private http: Http) {}", "}"]),
    ).toEqual({
      error: "Syntax error in a.ts:2:15: Unexpected token",
    });
  });

  test("long signatures are cut with an ellipsis", () => {
    const type = `{ ${Array.from({ length: 30 }, (_, index) => `field${index}: string`).join("; ")} }`;
    const result = exportsOf("a.ts", [`export function wide(options: ${type}, more: ${type}, last: ${type}) {}`]);
    // Each parameter is cut at 80 characters, the whole at 240.
    const parameter = (name: string) => `${`${name}: ${type}`.slice(0, 79).trimEnd()}…`;
    const whole = `wide(${parameter("options")}, ${parameter("more")}, ${parameter("last")})`;
    expect(result).toEqual({
      exports: [{ name: "wide", kind: "function", signature: `${whole.slice(0, 239).trimEnd()}…` }],
    });
  });
});

describe("moduleExports: doc comments", () => {
  test.each<[string, string[], string | undefined]>([
    [
      "first sentence of a TSDoc block",
      ["/**", " * Totals a column. Skips empty cells.", " * @param rows the rows", " */", "export function f() {}"],
      "Totals a column.",
    ],
    [
      "over several lines",
      ["/** Totals the values", " * of a column! Then more. */", "export function f() {}"],
      "Totals the values of a column!",
    ],
    [
      "abbreviations do not end it",
      ["/** Reads a file, e.g. a CSV. Then. */", "export function f() {}"],
      "Reads a file, e.g. a CSV.",
    ],
    [
      "{@link} becomes its text",
      ["/** Like {@link g} and {@link h | the other}. */", "export function f() {}"],
      "Like g and the other.",
    ],
    ["without a full stop", ["/** Parses CSV */", "export function f() {}"], "Parses CSV"],
    ["only tags: none", ["/** @deprecated */", "export function f() {}"], undefined],
    ["a plain block comment is not TSDoc", ["/* Not documentation. */", "export function f() {}"], undefined],
    ["a line comment is not TSDoc", ["// Not documentation.", "export function f() {}"], undefined],
    ["code between: not this one's", ["/** Other. */", "const x = 1;", "export function f() {}"], undefined],
    ["after `export`, before the declaration", ["export /** Inner. */ function f() {}"], "Inner."],
  ])("%s", (_, lines, summary) => {
    const result = exportsOf("index.js", lines);
    expect(result).toEqual({
      exports: [{ name: "f", kind: "function", signature: "f()", ...(summary ? { summary } : {}) }],
    });
  });

  test("export { a as b } takes the declaration's comment, else the export's", () => {
    expect(
      exportsOf("index.ts", [
        "/** Adds. */",
        "function add(a: number) {}",
        "function bare() {}",
        "/** Both, exported. */",
        "export { add as plus, bare };",
      ]),
    ).toEqual({
      exports: [
        { name: "plus", kind: "function", signature: "plus(a: number)", summary: "Adds." },
        { name: "bare", kind: "function", signature: "bare()", summary: "Both, exported." },
      ],
    });
  });

  test("TSDoc survives TypeScript stripping; a summary is at most 200 characters", () => {
    const long = "word ".repeat(60).trim();
    expect(exportsOf("index.ts", [`/** ${long} */`, "export const x: number = 1;"])).toEqual({
      exports: [{ name: "x", kind: "constant", summary: `${long.slice(0, 199).trimEnd()}…` }],
    });
  });
});

describe("moduleExports: problems", () => {
  test("a syntax error instead of exports", () => {
    expect(moduleExports("src/index.ts", "export function f(a: number {\n}\n")).toEqual({
      error: 'Syntax error in src/index.ts:1:29: Unexpected token, expected ","',
    });
  });

  test("a module over the size limit is too large, not parsed", () => {
    expect(moduleExports("big.js", `export const a = 1;\n//${"x".repeat(MAX_MODULE_BYTES)}`)).toEqual({
      error: "big.js is too large to read as a module: over 1048576 bytes (1 MiB); split it or bundle less into it",
    });
  });
});
