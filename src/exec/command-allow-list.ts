import { toolNameOf } from "./tool-name.js";

/** Commands a skill that declares no `allowed-tools` may run: the files in its `scripts/` folder. */
export const DEFAULT_ALLOWED_COMMANDS = ["scripts/*"] as const;

// Claude Code tool names that are not programs: they never allow a command.
const NON_COMMAND_TOOLS = new Set([
  "read",
  "write",
  "edit",
  "multiedit",
  "glob",
  "grep",
  "ls",
  "webfetch",
  "websearch",
  "task",
  "todowrite",
  "notebookedit",
]);

/**
 * Whether `argv` may run under a skill's `allowed-tools` entries, read as a command allow-list:
 * - `*` or `Bash` allows any command;
 * - `python`, `bash`, `node`: that program (by name, with any arguments);
 * - a path pattern such as `scripts/*.sh` or `scripts/*`: a program at a matching path in the
 *   skill folder (`*` matches within one folder level);
 * - Claude Code's `Bash(git:*)`: `git` with any arguments; `Bash(npm run test:*)`: a command
 *   starting with `npm run test`; `Bash(make build)`: exactly that command.
 * Entries naming other tools (`Read`, `Grep`, ...) allow no command.
 */
export function isCommandAllowed(argv: readonly string[], entries: readonly string[]): boolean {
  return entries.some((entry) => entryAllows(entry.trim(), argv));
}

function entryAllows(entry: string, argv: readonly string[]): boolean {
  const program = argv[0]!;
  if (entry === "*") return true;
  const paren = entry.indexOf("(");
  if (paren !== -1 && entry.endsWith(")")) {
    if (toolNameOf(entry).toLowerCase() !== "bash") return false;
    return commandPatternAllows(entry.slice(paren + 1, -1).trim(), argv);
  }
  if (entry.toLowerCase() === "bash" && entry !== "bash") return true;
  if (NON_COMMAND_TOOLS.has(entry.toLowerCase())) return false;
  if (entry.includes("/") || entry.includes("*"))
    return program.includes("/") && globMatches(entry.replace(/^\.\//, ""), program.replace(/^\.\//, ""));
  return !program.includes("/") && program === entry;
}

// `git:*` / `git *`: a prefix of arguments, then anything; otherwise the exact command.
function commandPatternAllows(pattern: string, argv: readonly string[]): boolean {
  const prefix = pattern.endsWith(":*")
    ? pattern.slice(0, -2)
    : pattern.endsWith(" *")
      ? pattern.slice(0, -2)
      : undefined;
  const words = (prefix ?? pattern).split(/\s+/).filter(Boolean);
  if (words.length === 0) return prefix !== undefined;
  if (prefix === undefined && words.length !== argv.length) return false;
  return words.every((word, index) => argv[index] === word);
}

function globMatches(pattern: string, path: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
  return new RegExp(`^${source}$`).test(path);
}
