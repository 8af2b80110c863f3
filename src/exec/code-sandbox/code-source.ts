import { parse, type Node, type Program } from "acorn";

/** Name the model's code has inside the sandbox (in stack traces and import bases). */
export const RUN_CODE_FILE = "run_code.js";
/** The sandbox function every `import(…)` expression is rewritten to call, so that loading can be asynchronous. */
export const IMPORT_FUNCTION = "__skillset_import";
/** Prefix put before the model's code on its first line (line numbers stay as written). */
export const RUN_CODE_PREFIX = "export default (async () => {";

/** Source ready for the engine, and the specifiers its static imports name (as written). */
export type PreparedSource = { source: string; imports: string[] } | { error: string };

interface Replacement {
  start: number;
  end: number;
  text: string;
}

/**
 * The model's code (the body of an async function, with `import` declarations at its top) as an ES
 * module whose default export is the promise of that body's result. Import declarations move below the
 * body (they are hoisted either way) and `import(x)` becomes a call the sandbox answers asynchronously.
 */
export function prepareRunCode(code: string): PreparedSource {
  const program = parseModule(code, RUN_CODE_FILE);
  if ("error" in program) return program;
  const declarations: string[] = [];
  const replacements: Replacement[] = dynamicImports(program, RUN_CODE_FILE);
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      declarations.push(code.slice(statement.start, statement.end));
      replacements.push({ start: statement.start, end: statement.end, text: blank(code, statement) });
    } else if (statement.type.startsWith("Export")) {
      return {
        error: `${position(code, statement.start)}: \`export\` is not available here; return the value instead.`,
      };
    }
  }
  const body = applyReplacements(code, replacements);
  return {
    source: `${RUN_CODE_PREFIX}${body}\n})();\n${declarations.join("\n")}\n`,
    imports: program.body.flatMap((s) => (s.type === "ImportDeclaration" ? [String(s.source.value)] : [])),
  };
}

/** A module's source with its `import(x)` calls rewritten, and the specifiers of its static imports and re-exports. */
export function prepareModuleSource(specifier: string, source: string): PreparedSource {
  const program = parseModule(source, specifier);
  if ("error" in program) return program;
  const imports: string[] = [];
  for (const statement of program.body) {
    if (
      statement.type === "ImportDeclaration" ||
      ((statement.type === "ExportNamedDeclaration" || statement.type === "ExportAllDeclaration") && statement.source)
    ) {
      imports.push(String(statement.source?.value));
    }
  }
  return { source: applyReplacements(source, dynamicImports(program, specifier)), imports };
}

function parseModule(text: string, file: string): Program | { error: string } {
  try {
    return parse(text, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowReturnOutsideFunction: file === RUN_CODE_FILE,
      allowAwaitOutsideFunction: file === RUN_CODE_FILE,
      locations: true,
    });
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = String((error as Error).message).replace(/ \(\d+:\d+\)$/, "");
    const where = loc ? `line ${loc.line}, column ${loc.column + 1}` : "unknown position";
    return { error: `SyntaxError in ${file} at ${where}: ${message}` };
  }
}

function dynamicImports(program: Program, importer: string): Replacement[] {
  const found: Replacement[] = [];
  visit(program, (node) => {
    if (node.type !== "ImportExpression") return;
    const source = (node as Node & { source: Node }).source;
    found.push({ start: node.start, end: source.start, text: `${IMPORT_FUNCTION}(${JSON.stringify(importer)}, ` });
  });
  return found;
}

function visit(node: Node, onNode: (node: Node) => void): void {
  onNode(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, onNode);
    } else if (isNode(value)) {
      visit(value, onNode);
    }
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

// Replaced text keeps its line breaks, so the engine's line numbers match the code as written.
function blank(text: string, node: Node): string {
  return text.slice(node.start, node.end).replace(/[^\n]/g, " ");
}

function applyReplacements(text: string, replacements: Replacement[]): string {
  let result = text;
  for (const { start, end, text: replacement } of [...replacements].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + replacement + result.slice(end);
  }
  return result;
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
