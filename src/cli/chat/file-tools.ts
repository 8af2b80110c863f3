import { tool, ToolMessage, type ToolRuntime } from "langchain";
import { z } from "zod";
import { SkillsetError } from "../../errors/skillset-error.js";
import { DEFAULT_RESOURCE_LINES, renderResourcePage } from "../../core/resources/read-resource.js";
import { openWorkingFolder, type InsidePath, type WorkingFolder } from "./working-folder.js";

/** The names of the read-only file tools, as deepagents names its own. */
export const FILE_TOOL_NAMES = ["ls", "read_file", "glob", "grep"] as const;

const MAX_LISTED = 500;
const MAX_MATCHES = 100;
const MAX_SEARCHED_FILES = 20_000;
// Longest line a search pattern is tried on, and shown: a minified file must not stall the chat.
const MAX_LINE = 2_000;
const SHOWN_LINE = 300;

/**
 * `ls`, `read_file`, `glob` and `grep` over `root` (the chat's working folder), read-only: every
 * path must resolve inside it, symlinks included, and special files are never opened. A refusal
 * is an error `ToolMessage` the model can act on.
 */
export function createFileTools(root: string) {
  const folder = openWorkingFolder(root);
  const where = `Paths are relative to the working folder ${folder.root} (absolute paths inside it work too).`;
  return [lsTool(folder, where), readFileTool(folder, where), globTool(folder, where), grepTool(folder, where)];
}

function lsTool(folder: WorkingFolder, where: string) {
  return tool(
    guarded((input: { path?: string | undefined }) => listFolder(folder, folder.resolve(input.path ?? "."))),
    {
      name: "ls",
      description: `List a folder of the working folder: sub-folders end with /, files show their size. ${where}`,
      schema: z.object({ path: z.string().optional().describe("The folder; the working folder itself when omitted.") }),
    },
  );
}

function readFileTool(folder: WorkingFolder, where: string) {
  return tool(
    guarded(
      (input: {
        path?: string | undefined;
        file_path?: string | undefined;
        offset?: number | undefined;
        limit?: number | undefined;
      }) => {
        // deepagents and Claude Code call it `file_path`; models trained on them use that name.
        const requested = input.path ?? input.file_path;
        if (requested === undefined) return error("read_file needs the file's path, as `path`");
        const path = folder.resolve(requested);
        if (path.stat.isDirectory()) return error(`${path.shown} is a folder; list it with ls`);
        return renderResourcePage(
          path.shown,
          folder.read(path),
          input.offset ?? 0,
          input.limit ?? DEFAULT_RESOURCE_LINES,
        );
      },
    ),
    {
      name: "read_file",
      description: `Read a text file of the working folder, a page of lines at a time. ${where}`,
      schema: z.object({
        path: z.string().optional().describe("The file to read."),
        file_path: z.string().optional().describe("The file to read (another name for path)."),
        offset: z.number().int().min(0).optional().describe("First line to read, 0-based."),
        limit: z
          .number()
          .int()
          .positive()
          .optional()
          .describe(`How many lines to read (default ${DEFAULT_RESOURCE_LINES}).`),
      }),
    },
  );
}

function globTool(folder: WorkingFolder, where: string) {
  return tool(
    guarded((input: { pattern: string; path?: string | undefined }) => {
      const matcher = globMatcher(input.pattern);
      const { files, truncated } = folder.files(folder.resolve(input.path ?? "."), MAX_SEARCHED_FILES);
      const found = files.filter(matcher);
      if (found.length === 0) return `No files match ${input.pattern}.`;
      const shown = found.slice(0, MAX_LISTED);
      const more =
        found.length > shown.length ? `\n(${found.length - shown.length} more not shown; narrow the pattern)` : "";
      return shown.join("\n") + more + (truncated ? `\n(search stopped after ${MAX_SEARCHED_FILES} files)` : "");
    }),
    {
      name: "glob",
      description: `Find files of the working folder by name: \`*\`, \`?\`, \`**\` and \`{a,b}\`; a pattern without / matches file names at any depth (\`*.md\`), one with / matches whole paths (\`src/**/*.ts\`). .git and node_modules are not searched. ${where}`,
      schema: z.object({
        pattern: z.string().describe("The glob pattern."),
        path: z.string().optional().describe("The folder to search; the working folder when omitted."),
      }),
    },
  );
}

function grepTool(folder: WorkingFolder, where: string) {
  return tool(
    guarded(
      (input: {
        pattern: string;
        path?: string | undefined;
        glob?: string | undefined;
        ignore_case?: boolean | undefined;
      }) => {
        let regex: RegExp;
        try {
          regex = new RegExp(input.pattern, input.ignore_case ? "i" : "");
        } catch (reason) {
          return error(`Invalid regular expression ${input.pattern}: ${(reason as Error).message}`);
        }
        return search(
          folder,
          folder.resolve(input.path ?? "."),
          regex,
          input.glob ? globMatcher(input.glob) : () => true,
        );
      },
    ),
    {
      name: "grep",
      description: `Search the text files of the working folder for a regular expression (JavaScript syntax); prints path:line: text. .git and node_modules are not searched. ${where}`,
      schema: z.object({
        pattern: z.string().describe("The regular expression."),
        path: z.string().optional().describe("A folder or file to search; the working folder when omitted."),
        glob: z.string().optional().describe("Only files matching this glob (as for the glob tool)."),
        ignore_case: z.boolean().optional().describe("Match without regard to case."),
      }),
    },
  );
}

/** A tool body whose refusals (and failures) become error `ToolMessage`s for the model. */
function guarded<I>(run: (input: I) => string | ToolError) {
  return (input: I, runtime: ToolRuntime) => {
    const name = (runtime as { toolCall?: { name?: string } }).toolCall?.name ?? "file tool";
    let result: string | ToolError;
    try {
      result = run(input);
    } catch (reason) {
      result = error(SkillsetError.isInstance(reason) ? reason.message : String(reason));
    }
    if (typeof result === "string") return result;
    return new ToolMessage({
      content: `Error: ${result.message}.`,
      tool_call_id: runtime.toolCallId,
      name,
      status: "error",
    });
  };
}

interface ToolError {
  message: string;
}

function error(message: string): ToolError {
  return { message };
}

function listFolder(folder: WorkingFolder, path: InsidePath): string | ToolError {
  if (!path.stat.isDirectory()) return error(`${path.shown} is not a folder; read it with read_file`);
  const entries = folder.entries(path);
  if (entries.length === 0) return `${path.shown} is empty.`;
  const shown = entries
    .slice(0, MAX_LISTED)
    .map((entry) => (entry.folder ? `${entry.name}/` : `${entry.name} (${entry.size} bytes)`));
  return (
    shown.join("\n") + (entries.length > shown.length ? `\n(${entries.length - shown.length} more not shown)` : "")
  );
}

function search(folder: WorkingFolder, start: InsidePath, regex: RegExp, wanted: (path: string) => boolean): string {
  const { files, truncated } = folder.files(start, MAX_SEARCHED_FILES);
  const matches: string[] = [];
  let more = false;
  for (const file of files.filter(wanted)) {
    let text: string;
    try {
      const bytes = folder.read(folder.resolve(file));
      if (bytes.includes(0)) continue;
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      continue; // binary, too large or unreadable: not a text file to search
    }
    const lines = text.split("\n");
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!.slice(0, MAX_LINE);
      if (!regex.test(line)) continue;
      if (matches.length >= MAX_MATCHES) {
        more = true;
        break;
      }
      matches.push(`${file}:${index + 1}: ${line.length > SHOWN_LINE ? `${line.slice(0, SHOWN_LINE)}…` : line}`);
    }
    if (more) break;
  }
  if (matches.length === 0) return `No matches for ${regex.source}.`;
  return (
    matches.join("\n") +
    (more ? `\n(more matches not shown: narrow the search)` : "") +
    (truncated ? `\n(search stopped after ${MAX_SEARCHED_FILES} files)` : "")
  );
}

/**
 * A test of relative paths against a glob: `*` and `?` within one path segment, `**` across
 * segments, `{a,b}` alternatives. Without a `/`, the pattern is tried on the file name.
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  let source = "";
  let depth = 0;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*" && pattern[index + 1] === "*") {
      const slash = pattern[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      source += "(?:";
      depth++;
    } else if (char === "}" && depth > 0) {
      source += ")";
      depth--;
    } else if (char === "," && depth > 0) source += "|";
    else source += char.replace(/[\\^$.+()|[\]{}]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}${")".repeat(depth)}$`);
  const byName = !pattern.includes("/");
  return (path) => regex.test(byName ? path.slice(path.lastIndexOf("/") + 1) : path);
}
