// Typechecks the TypeScript and JavaScript blocks of the documentation as files inside the
// repository, so that `skillset`, `skillset/langchain`… resolve to the built package itself
// (package.json `exports`, self-reference) and every other import to node_modules.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { type CodeBlock, fromRoot, where } from "./markdown-blocks.js";

/** The languages that are compiled, and the extension each is written with. */
export const COMPILED: Record<string, ".ts" | ".mjs"> = {
  ts: ".ts",
  typescript: ".ts",
  js: ".mjs",
  javascript: ".mjs",
  mjs: ".mjs",
};

interface Written {
  block: CodeBlock;
  path: string;
  /** Lines of hidden prelude before the block's first line. */
  offset: number;
}

/**
 * Writes each block to `folder` (one sub-folder per Markdown file) and compiles them together with
 * the project's compiler options; returns each block's diagnostics, as `doc:line: message`.
 */
export function typecheckBlocks(root: string, folder: string, blocks: CodeBlock[]): Map<CodeBlock, string[]> {
  rmSync(folder, { recursive: true, force: true });
  const written: Written[] = blocks.map((block) => {
    const dir = join(folder, block.doc.replace(/\.md$/, "").replace(/[^\w-]+/g, "-"));
    mkdirSync(dir, { recursive: true });
    const extension = COMPILED[block.lang]!;
    const path = join(dir, `${block.file ?? `line-${block.line}`}${extension}`);
    const prelude = block.prelude.join("\n");
    const offset = prelude === "" ? 0 : prelude.split("\n").length;
    // `export {}` keeps every file a module, so top-level names never clash across blocks.
    writeFileSync(path, `${prelude === "" ? "" : prelude + "\n"}${block.code}\nexport {};\n`);
    return { block, path, offset };
  });

  const program = ts.createProgram(
    written.map((file) => file.path),
    compilerOptions(root),
  );
  const results = new Map<CodeBlock, string[]>(blocks.map((block) => [block, []]));
  const byPath = new Map(written.map((file) => [file.path, file]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const file = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
    if (!file) {
      // A problem outside the snippets (a declaration file, the options) fails every block.
      const at = diagnostic.file ? `${fromRoot(root, diagnostic.file.fileName)}: ` : "";
      for (const list of results.values()) list.push(`${at}TS${diagnostic.code}: ${message}`);
      continue;
    }
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const docLine =
      line < file.offset
        ? `${where(file.block)} (prelude)`
        : `${file.block.doc}:${file.block.line + 1 + line - file.offset}`;
    results.get(file.block)!.push(`${docLine}: TS${diagnostic.code}: ${message}`);
  }
  return results;
}

/** tsconfig.json's options (strict, NodeNext), checking JavaScript too and emitting nothing. */
function compilerOptions(root: string): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  const { options, errors } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
  if (errors.length > 0)
    throw new Error(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, "\n")).join("\n"));
  return {
    ...options,
    rootDir: root,
    noEmit: true,
    allowJs: true,
    checkJs: true,
    declaration: false,
    sourceMap: false,
    incremental: false,
  };
}
