import type {
  AnyNode,
  Class,
  Function as FunctionNode,
  Identifier,
  Literal,
  ModuleDeclaration,
  Pattern,
  Statement,
} from "acorn";
import { docCommentBefore, firstSentence } from "./doc-comment.js";
import { classSignature, functionSignature } from "./function-signature.js";
import { parseModule, type ParsedModule } from "./module-javascript.js";

/**
 * What an export is: a `function` (declared, or a function or arrow assigned to a `const`), a
 * `class`, a `constant` or `variable` (`const`, or `let`/`var`), a `value` (`export default`
 * of another expression), a `re-export` of another module's export (`export { a } from`, an
 * imported name exported again, and `export * from`, whose names are not listed), or a
 * `namespace` (`export * as ns from`).
 */
export type ModuleExportKind = "function" | "class" | "constant" | "variable" | "value" | "re-export" | "namespace";

/** One export of a skill's module, as the model is told about it. */
export interface ModuleExport {
  /** The name to import: `default` for the default export, `*` for `export * from`. */
  name: string;
  kind: ModuleExportKind;
  /**
   * Functions: `name(a, b)`, and for TypeScript the parameter and return types as written
   * (`name(a: number): string`); classes: `new Name(…)` with the constructor's parameters.
   */
  signature?: string;
  /** The first sentence of its TSDoc/JSDoc comment (of the declaration, for `export { a }`). */
  summary?: string;
  /** Re-exports and namespaces: the module named after `from`. */
  from?: string;
}

/** A module's exports, in the order written, or why they cannot be read (a syntax error, too large). */
export type ModuleExports = { exports: ModuleExport[] } | { error: string };

// What a top-level name was declared as, and where its doc comment would be.
interface Declared {
  kind: ModuleExportKind;
  docAt: number[];
  function?: FunctionNode;
  class?: Class;
  from?: string;
}

/**
 * The exports of the module at `path` (`.ts`/`.mts` read as TypeScript): names, kinds, short
 * signatures and the first sentence of each one's doc comment. Types and interfaces are not
 * listed: they do not exist when the module runs. A module over `MAX_MODULE_BYTES` is not parsed.
 */
export function moduleExports(path: string, text: string): ModuleExports {
  const module = parseModule(path, text);
  if ("error" in module) return module;
  const declared = new Map<string, Declared>();
  for (const statement of module.program.body) declare(statement, declared);
  const exports: ModuleExport[] = [];
  for (const statement of module.program.body) exports.push(...exportsOf(module, statement, declared));
  return { exports };
}

function declare(statement: Statement | ModuleDeclaration, declared: Map<string, Declared>): void {
  if (statement.type === "ImportDeclaration") {
    for (const specifier of statement.specifiers)
      declared.set(specifier.local.name, { kind: "re-export", docAt: [], from: String(statement.source.value) });
    return;
  }
  const declaration =
    statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration"
      ? statement.declaration
      : statement;
  const docAt = statement === declaration ? [statement.start] : [statement.start, declaration?.start ?? -1];
  if (declaration?.type === "FunctionDeclaration" && declaration.id)
    declared.set(declaration.id.name, { kind: "function", docAt, function: declaration });
  else if (declaration?.type === "ClassDeclaration" && declaration.id)
    declared.set(declaration.id.name, { kind: "class", docAt, class: declaration });
  else if (declaration?.type === "VariableDeclaration") {
    for (const declarator of declaration.declarations) {
      const init = declarator.init;
      const entry: Declared = { kind: declaration.kind === "const" ? "constant" : "variable", docAt };
      if (init?.type === "ArrowFunctionExpression" || init?.type === "FunctionExpression")
        Object.assign(entry, { kind: "function", function: init });
      else if (init?.type === "ClassExpression") Object.assign(entry, { kind: "class", class: init });
      for (const name of patternNames(declarator.id)) declared.set(name, entry);
    }
  }
}

function exportsOf(module: ParsedModule, statement: AnyNode, declared: Map<string, Declared>): ModuleExport[] {
  const describe = (name: string, entry: Declared | undefined, docAt: number[], shownAs = name) =>
    describeExport(module, { name, shownAs }, entry, [...(entry?.docAt ?? []), ...docAt]);
  switch (statement.type) {
    case "ExportNamedDeclaration": {
      const from = statement.source ? String(statement.source.value) : undefined;
      if (statement.declaration) {
        const names =
          statement.declaration.type === "VariableDeclaration"
            ? statement.declaration.declarations.flatMap((declarator) => patternNames(declarator.id))
            : statement.declaration.id
              ? [statement.declaration.id.name]
              : [];
        return names.map((name) => describe(name, declared.get(name), []));
      }
      return statement.specifiers.map((specifier) => {
        const name = exportName(specifier.exported);
        if (from !== undefined) return { name, kind: "re-export" as const, from };
        return describe(name, declared.get(exportName(specifier.local)), [statement.start]);
      });
    }
    case "ExportAllDeclaration": {
      const from = String(statement.source.value);
      return [
        statement.exported
          ? { name: exportName(statement.exported), kind: "namespace", from }
          : { name: "*", kind: "re-export", from },
      ];
    }
    case "ExportDefaultDeclaration": {
      const declaration = statement.declaration;
      // Signatures use the name the module gives it, which says more than `default`.
      if (declaration.type === "Identifier")
        return [describe("default", declared.get(declaration.name), [statement.start], declaration.name)];
      const docAt = [statement.start, declaration.start];
      const shownAs = "id" in declaration && declaration.id ? declaration.id.name : "default";
      if (
        declaration.type === "FunctionDeclaration" ||
        declaration.type === "FunctionExpression" ||
        declaration.type === "ArrowFunctionExpression"
      )
        return [describe("default", { kind: "function", docAt, function: declaration }, [], shownAs)];
      if (declaration.type === "ClassDeclaration" || declaration.type === "ClassExpression")
        return [describe("default", { kind: "class", docAt, class: declaration }, [], shownAs)];
      return [describe("default", { kind: "value", docAt }, [])];
    }
    default:
      return [];
  }
}

function describeExport(
  module: ParsedModule,
  { name, shownAs }: { name: string; shownAs: string },
  entry: Declared | undefined,
  docAt: readonly number[],
): ModuleExport {
  const described: ModuleExport = { name, kind: entry?.kind ?? "value" };
  if (entry?.function) described.signature = functionSignature(module, shownAs, entry.function);
  else if (entry?.class) described.signature = classSignature(module, shownAs, entry.class);
  if (entry?.from !== undefined) described.from = entry.from;
  for (const at of docAt) {
    const comment = at < 0 ? undefined : docCommentBefore(module.comments, module.source, at);
    const summary = comment && firstSentence(comment);
    if (summary) {
      described.summary = summary;
      break;
    }
  }
  return described;
}

function exportName(node: Identifier | Literal): string {
  return node.type === "Identifier" ? node.name : String(node.value);
}

// The names a declaration binds: `a`, or every name in `{ a, b: [c, ...d] = {} }`.
function patternNames(pattern: Pattern): string[] {
  switch (pattern.type) {
    case "Identifier":
      return [pattern.name];
    case "ObjectPattern":
      return pattern.properties.flatMap((property) =>
        patternNames(property.type === "RestElement" ? property.argument : property.value),
      );
    case "ArrayPattern":
      return pattern.elements.flatMap((element) => (element ? patternNames(element) : []));
    case "RestElement":
      return patternNames(pattern.argument);
    case "AssignmentPattern":
      return patternNames(pattern.left);
    default:
      return [];
  }
}
