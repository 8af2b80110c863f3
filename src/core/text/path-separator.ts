/**
 * The separator a skill path uses: `\` only for a path with no `/` at all (Windows folders, and
 * backends that mirror them), so a POSIX file name that contains a backslash is never split.
 */
export function pathSeparator(path: string): "/" | "\\" {
  return !path.includes("/") && path.includes("\\") ? "\\" : "/";
}

/** The folder part of `path` (before its last separator), or "" when it has none. */
export function parentFolder(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf(pathSeparator(path)), 0));
}

/** The last part of `path`. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf(pathSeparator(path)) + 1);
}
