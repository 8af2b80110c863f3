// The fenced code blocks of the project's Markdown documentation, with the hidden directives that
// docs-snippets.test.ts reads from an HTML comment right before a block (see that file).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One fenced block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository (`README.md`, `docs/cli.md`). */
  doc: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The first word of the info string, lower case (`ts`, `sh`, `json`), or `""` when there is none. */
  lang: string;
  /** The other words of the info string (`illustration`, `invalid`). */
  flags: string[];
  /** The block's text, its fence's indentation removed. */
  code: string;
  /** `<!-- snippet: prelude CODE -->`: declarations compiled before the block, unseen by readers. */
  prelude: string[];
  /** `<!-- snippet: file NAME -->`: the block is also `NAME.ts`, for a later block's prelude to import. */
  file?: string;
  /** `<!-- snippet: run -->`: a shell block whose commands are run and must succeed. */
  run: boolean;
  /** `<!-- snippet: mcp-exchange FOLDER -->`: a transcript of requests to replay against `skillset mcp FOLDER`. */
  mcpExchange?: string;
}

/** `README.md` and every `docs/**\/*.md` but `docs/notes/`, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const found = ["README.md"];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory() && path !== "docs/notes") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

const OPENING = /^( *)(`{3,}|~{3,})\s*([^`]*)$/;
const DIRECTIVE = /^\s*<!--\s*snippet:\s*([\w-]+)\s*([\s\S]*?)\s*-->\s*$/;

/** The fenced blocks of one Markdown file; an unclosed fence is an error. */
export function codeBlocks(root: string, doc: string): CodeBlock[] {
  const lines = readFileSync(join(root, doc), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, fence, info] = opening as unknown as [string, string, string, string];
    const closing = new RegExp(`^ *${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    if (end === lines.length) throw new Error(`${doc}:${index + 1}: the fence opened here is never closed`);
    const [lang = "", ...flags] = info.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const code = lines
      .slice(index + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join("\n");
    blocks.push({ doc, line: index + 1, lang, flags, code, ...directivesBefore(lines, index, doc) });
    index = end;
  }
  return blocks;
}

/** The `<!-- snippet: … -->` comments on the lines right before a fence (blank lines between are allowed). */
function directivesBefore(
  lines: string[],
  fence: number,
  doc: string,
): Pick<CodeBlock, "prelude" | "file" | "run" | "mcpExchange"> {
  const found: Pick<CodeBlock, "prelude" | "file" | "run" | "mcpExchange"> = { prelude: [], run: false };
  for (let index = fence - 1; index >= 0; index--) {
    if (lines[index]!.trim() === "") continue;
    if (!lines[index]!.trimEnd().endsWith("-->")) break;
    // A directive may span lines: gather the comment up to the line that opens it.
    let start = index;
    while (start > 0 && !lines[start]!.includes("<!--")) start--;
    const comment = lines.slice(start, index + 1).join("\n");
    const directive = DIRECTIVE.exec(comment);
    if (!directive) break;
    const [, name, argument] = directive as unknown as [string, string, string];
    if (name === "prelude") found.prelude.unshift(argument);
    else if (name === "file" && /^[\w-]+$/.test(argument)) found.file = argument;
    else if (name === "run" && argument === "") found.run = true;
    else if (name === "mcp-exchange" && argument !== "") found.mcpExchange = argument;
    else throw new Error(`${doc}:${start + 1}: unknown snippet directive: ${comment.trim()}`);
    index = start;
  }
  return found;
}

/** Where a block is, for messages: `docs/cli.md:42`. */
export const where = (block: Pick<CodeBlock, "doc" | "line">) => `${block.doc}:${block.line}`;

/** `path` relative to the repository, with forward slashes. */
export const fromRoot = (root: string, path: string) => relative(root, path).split("\\").join("/");
