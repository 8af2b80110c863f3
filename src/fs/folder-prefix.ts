// No Node import here: the deepagents backend source runs wherever `skillset` does and asks this
// too, about paths on its backend that this machine cannot resolve.

/**
 * The comparison {@link isInsideFolder} makes once both paths are resolved, for paths it must
 * not resolve itself (a backend's, an archive's): whether `path` is `folder`, or starts with
 * `folder` followed by `separator`. Whole segments, so `/ab` is not inside `/a`; spellings
 * compared exactly (case included); a `folder` that ends in `separator` (a root such as `/` or
 * `C:\`) is a prefix as it is. Nothing is normalised: a `.` or `..` segment, a doubled or a
 * trailing separator in `path` counts as text, so callers refuse or resolve those first.
 *
 * @see isInsideFolder for paths of this machine.
 */
export function isInsideResolvedFolder(folder: string, path: string, separator: string): boolean {
  if (path === folder) return true;
  return path.startsWith(folder.endsWith(separator) ? folder : folder + separator);
}
