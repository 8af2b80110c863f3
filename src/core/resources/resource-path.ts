/** A resource path checked to stay inside its skill folder, or why it cannot. */
export type CheckedResourcePath = { ok: true; path: string } | { ok: false; reason: string };

// Downstream code (a backend, a file system, a sandbox) may normalise a path in any of these forms.
const NORMAL_FORMS = ["NFC", "NFD", "NFKC", "NFKD"] as const;

/**
 * Checks a path the model gave for a skill's resource: relative, `/`-separated, no `..`, no
 * empty or `.` tricks, no control characters, no backslashes or drive letters. Every Unicode
 * normal form (NFC, NFD, NFKC, NFKD) of the path given and of the path returned is checked, so
 * look-alikes such as `‥` or fullwidth `．．／` cannot become `..`, `/` or `\` anywhere
 * downstream. Percent-encodings are not decoded: `%2e%2e` is a file name, not `..`.
 */
export function checkResourcePath(path: string): CheckedResourcePath {
  if (path.length === 0 || path.length > 1024) return { ok: false, reason: "the path is empty or too long" };
  const given = spellingProblem(path);
  if (given) return { ok: false, reason: given };
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.length === 0) return { ok: false, reason: "the path names the skill's folder itself, not a file" };
  const cleaned = parts.join("/");
  // Dropping `.` and empty parts can expose a look-alike: `./／` becomes `／`, which is `/` in NFKC.
  const returned = spellingProblem(cleaned);
  if (returned) return { ok: false, reason: returned };
  return { ok: true, path: cleaned };
}

/** Why `path` is unsafe in itself or in any of its normal forms; undefined when it is safe. */
function spellingProblem(path: string): string | undefined {
  for (const form of new Set([path, ...NORMAL_FORMS.map((name) => path.normalize(name))])) {
    if (/[\p{Cc}\p{Cf}]/u.test(form)) return "the path contains control or invisible characters";
    if (form.includes("\\")) return "use '/' to separate folders, not '\\'";
    if (form.startsWith("/") || /^[A-Za-z]:/.test(form))
      return "absolute paths are not allowed; give a path relative to the skill's folder";
    if (form.split("/").includes("..")) return "'..' is not allowed; resources must be inside the skill's folder";
  }
  return undefined;
}
