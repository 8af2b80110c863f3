import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The structure CONTRIBUTING.md describes, checked: arrows between folders point down, no file
// imports itself through others, and no file or function grows past what a reader holds at once.

const SRC = resolve(import.meta.dirname, "../src");
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 100;

// Lower rank = lower layer. A folder may import only folders of a lower rank (and itself).
const LAYERS: Record<string, number> = {
  errors: 0,
  fs: 1,
  exec: 2,
  core: 3,
  sources: 4,
  node: 5,
  langchain: 6,
  ai: 6,
  mcp: 6,
  cli: 7,
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = sourceFiles(SRC);
const parsed = new Map(
  files.map((file) => [file, ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)]),
);
const display = (file: string) => relative(SRC, file);
const layerOf = (file: string) => display(file).split("/")[0]!;
const rankOf = (file: string) => LAYERS[layerOf(file)]!;

function relativeImports(source: ts.SourceFile): string[] {
  const targets: string[] = [];
  const visit = (node: ts.Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier?.startsWith(".")) targets.push(resolve(dirname(source.fileName), specifier.replace(/\.js$/, ".ts")));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return targets;
}

const imports = new Map(
  [...parsed].map(([file, source]) => [file, relativeImports(source).filter((target) => parsed.has(target))]),
);

describe("architecture", () => {
  it("arrows between folders point down the layers (errors, fs, exec, core, sources, node, hosts, cli)", () => {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      if (!(layerOf(file) in LAYERS)) continue; // the entry points (src/*.ts) assemble the layers
      for (const target of targets) {
        const [from, to] = [rankOf(file), rankOf(target)];
        if (to > from || (to === from && layerOf(target) !== layerOf(file)))
          upward.push(`${display(file)} -> ${display(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("core/ imports nothing Node-only: no node: module and nothing from fs/", () => {
    const nodeOnly: string[] = [];
    for (const [file, source] of parsed) {
      if (layerOf(file) !== "core") continue;
      for (const statement of source.statements) {
        const specifier =
          (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
          statement.moduleSpecifier &&
          ts.isStringLiteral(statement.moduleSpecifier)
            ? statement.moduleSpecifier.text
            : undefined;
        if (specifier?.startsWith("node:")) nodeOnly.push(`${display(file)} -> ${specifier}`);
      }
      for (const target of imports.get(file) ?? [])
        if (layerOf(target) === "fs") nodeOnly.push(`${display(file)} -> ${display(target)}`);
    }
    expect(nodeOnly).toEqual([]);
  });

  it("no import cycles between files", () => {
    // Tarjan's strongly connected components; any component of two or more files is a cycle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const connect = (file: string) => {
      index.set(file, counter);
      low.set(file, counter++);
      stack.push(file);
      onStack.add(file);
      for (const target of imports.get(file) ?? []) {
        if (!index.has(target)) {
          connect(target);
          low.set(file, Math.min(low.get(file)!, low.get(target)!));
        } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
      if (low.get(file) !== index.get(file)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(display(member));
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    };
    for (const file of files) if (!index.has(file)) connect(file);
    expect(cycles).toEqual([]);
  });

  it(`no source file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({
        file: display(file),
        lines: parsed.get(file)!.getLineAndCharacterOfPosition(parsed.get(file)!.end).line,
      }))
      .filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const [file, source] of parsed) {
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && "body" in node && node.body) {
          const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const end = source.getLineAndCharacterOfPosition(node.end).line;
          if (end - start + 1 > MAX_FUNCTION_LINES)
            long.push(`${display(file)}:${start + 1} ${functionName(node)} (${end - start + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText();
  return "(anonymous)";
}
