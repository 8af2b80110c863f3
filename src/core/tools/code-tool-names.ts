/**
 * The name the model's code calls a tool by, `tools.<name>`: deepagents' camelCase, so `read_file` is
 * `readFile` and `list-issues` is `listIssues`. Underscores and hyphens between letters or digits go and the
 * letter after them is upper-cased; leading ones, and names already in camelCase, stay as written.
 */
export function codeToolName(tool: string): string {
  return tool.replace(/(?<=[A-Za-z0-9])[_-]+([A-Za-z0-9])/g, (_match, next: string) => next.toUpperCase());
}
