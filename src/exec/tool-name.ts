/**
 * The tool an `allowed-tools` entry names: `Bash(git:*)` names `Bash`. It lives in `exec/` because
 * the command allow-list reads entries this way too, and `exec/` imports nothing above it.
 */
export function toolNameOf(entry: string): string {
  const paren = entry.indexOf("(");
  return (paren === -1 ? entry : entry.slice(0, paren)).trim();
}
