/** A command split into arguments, or why it was refused. */
export type ParsedCommand = { ok: true; argv: string[] } | { ok: false; reason: string };

const MAX_COMMAND_LENGTH = 4096;

// Characters a shell would interpret. Commands never go through a shell, so these would not do
// what the model expects; refusing them says so instead of passing them on literally.
const SHELL_SYNTAX: Record<string, string> = {
  ";": "';' (command separator)",
  "&": "'&' (background or '&&')",
  "|": "'|' (pipe or '||')",
  "`": "backticks (command substitution)",
  $: "'$' (variable or command substitution)",
  "<": "'<' (redirection)",
  ">": "'>' (redirection)",
  "(": "'(' (subshell)",
  ")": "')' (subshell)",
  "\n": "a line break",
  "\r": "a line break",
  "*": "'*' (globbing)",
  "?": "'?' (globbing)",
};

/**
 * Splits a command line into arguments without a shell: whitespace separates arguments, and
 * single or double quotes group them literally. Shell syntax (`;`, `&&`, `|`, `$(...)`,
 * backticks, redirections, globs, line breaks) is refused with a message that names it, as are
 * absolute paths, `..` and a program name starting with `-`.
 */
export function parseCommand(command: string): ParsedCommand {
  if (command.length > MAX_COMMAND_LENGTH) return refuse(`the command is longer than ${MAX_COMMAND_LENGTH} characters`);
  if ([...command].some((char) => char !== "\t" && char !== "\n" && char !== "\r" && /\p{Cc}/u.test(char)))
    return refuse("it contains control characters");
  const argv: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  let inArgument = false;
  for (const char of command) {
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\n" || char === "\r" || (quote === '"' && (char === "$" || char === "`")))
        return refuse(`shell syntax is not supported: ${SHELL_SYNTAX[char]}`);
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inArgument = true;
    } else if (char === " " || char === "\t") {
      if (inArgument) argv.push(current);
      current = "";
      inArgument = false;
    } else if (char in SHELL_SYNTAX) {
      return refuse(
        `shell syntax is not supported: ${SHELL_SYNTAX[char]}. Run one program with its arguments; no shell is involved`,
      );
    } else if (char === "\\") {
      return refuse("backslashes are not supported; quote the argument instead");
    } else {
      current += char;
      inArgument = true;
    }
  }
  if (quote) return refuse(`unterminated ${quote === "'" ? "single" : "double"} quote`);
  if (inArgument) argv.push(current);
  if (argv.length === 0) return refuse("the command is empty");
  if (argv[0] === "") return refuse("the program name is empty");
  if (argv[0]!.startsWith("-")) return refuse(`the program name '${argv[0]}' starts with '-'`);
  for (const argument of argv) {
    const problem = pathProblem(argument);
    if (problem) return refuse(`argument '${argument}' ${problem}; scripts run inside the skill's folder`);
  }
  return { ok: true, argv };
}

// Absolute paths and `..` segments would reach outside the skill folder; `~` expands to home in
// a shell. Values hide in more places than the whole argument: `--out=/x`, `if=/x`, `-o/x`,
// `-C..`, `@/x` (curl), `file:///x`; every such part is checked. Other URLs (`https://…`) pass.
function pathProblem(argument: string): string | undefined {
  for (const form of new Set([argument, argument.normalize("NFKC")])) {
    for (const part of valueParts(form)) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(part)) {
        if (/^file:/i.test(part)) return "is a file: URL";
        continue;
      }
      if (part.startsWith("/")) return "is an absolute path";
      if (part.startsWith("~")) return "starts with '~'";
      if (part.split("/").includes("..")) return "contains '..'";
    }
  }
  return undefined;
}

function valueParts(argument: string): string[] {
  const parts = [argument];
  const option = /^-{1,2}[A-Za-z][\w-]*/.exec(argument);
  if (option) parts.push(argument.slice(option[0].length).replace(/^=/, ""), argument.slice(2));
  for (const separator of ["=", "@", ":"]) {
    const at = argument.indexOf(separator);
    if (at !== -1) parts.push(argument.slice(at + 1));
  }
  return parts;
}

function refuse(reason: string): ParsedCommand {
  return { ok: false, reason };
}
