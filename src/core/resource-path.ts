/** A resource path checked to stay inside its skill folder, or why it cannot. */
export type CheckedResourcePath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Checks a path the model gave for a skill's resource: relative, `/`-separated, no `..`, no
 * empty or `.` tricks, no control characters, no backslashes or drive letters. The NFKC form is
 * checked too, so look-alikes such as `‥` or fullwidth `．．／` cannot become `..` anywhere
 * downstream. Percent-encodings are not decoded: `%2e%2e` is a file name, not `..`.
 */
export function checkResourcePath(path: string): CheckedResourcePath {
  if (path.length === 0 || path.length > 1024) return { ok: false, reason: "the path is empty or too long" };
  if (/[\p{Cc}\p{Cf}]/u.test(path)) return { ok: false, reason: "the path contains control or invisible characters" };
  for (const form of new Set([path, path.normalize("NFKC")])) {
    if (form.includes("\\")) return { ok: false, reason: "use '/' to separate folders, not '\\'" };
    if (form.startsWith("/") || /^[A-Za-z]:/.test(form)) return { ok: false, reason: "absolute paths are not allowed; give a path relative to the skill's folder" };
    if (form.split("/").includes("..")) return { ok: false, reason: "'..' is not allowed; resources must be inside the skill's folder" };
  }
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.length === 0) return { ok: false, reason: "the path names the skill's folder itself, not a file" };
  return { ok: true, path: parts.join("/") };
}
