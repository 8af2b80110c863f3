/**
 * Reads `allowed-tools` in every form real skills use: the spec's
 * space-separated string, comma-separated strings and YAML lists. Parentheses group, so
 * Claude Code's `Bash(git add:*)` stays one entry even though it contains a space.
 */
export function parseAllowedTools(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => (typeof item === "string" ? splitToolList(item) : []));
  if (typeof value === "string") return splitToolList(value);
  return [];
}

function splitToolList(text: string): string[] {
  const tools: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current) tools.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current) tools.push(current);
  return tools;
}
