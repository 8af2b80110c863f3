import { checkResourcePath } from "../../core/resources/resource-path.js";

/** The scheme `skillset mcp` serves skills under: `skill://<name>/<path>`. */
export const SKILL_URI_PREFIX = "skill://";

/**
 * A served skill's URI, read: the skill's name and, below it, a file or folder path (decoded and
 * checked), or why it cannot be read. `namesFolder`: the URI ends as only a folder's can, in `/`
 * or a `.` segment (also as `%2e`), so it is never a file's URI, though `path` may name one.
 */
export type ParsedSkillUri =
  { ok: true; skill: string; path: string | undefined; namesFolder: boolean } | { ok: false; reason: string };

/** The URI of a skill's file (`SKILL.md` by default) or, with `""`, of its folder. Every segment is percent-encoded. */
export function skillUri(skill: string, path = "SKILL.md"): string {
  const segments = [skill, ...(path === "" ? [] : path.split("/"))];
  return SKILL_URI_PREFIX + segments.map(encodeURIComponent).join("/");
}

/**
 * Reads `skill://<name>/<path>`. Each segment is percent-decoded once, then the path goes through
 * the same check as `read_skill_resource` paths (`checkResourcePath`): `..` (also as `%2e%2e`),
 * absolute paths, backslashes and control characters are refused. A segment that decodes to a `/`
 * (`%2f`) names no file: folders are separated by `/` only.
 * `path` is `undefined` for the skill's folder itself (`skill://<name>`).
 */
export function parseSkillUri(uri: string): ParsedSkillUri {
  if (!uri.startsWith(SKILL_URI_PREFIX)) return { ok: false, reason: `it is not a ${SKILL_URI_PREFIX} URI` };
  const segments: string[] = [];
  for (const segment of uri.slice(SKILL_URI_PREFIX.length).split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { ok: false, reason: "it has a malformed percent-encoding" };
    }
    if (decoded.includes("/")) return { ok: false, reason: "a percent-encoded '/' names no file" };
    segments.push(decoded);
  }
  const [skill, ...rest] = segments;
  if (!skill) return { ok: false, reason: "it names no skill" };
  const last = rest.at(-1);
  const namesFolder = last === undefined || last === "" || last === ".";
  if (rest.length === 0 || (rest.length === 1 && rest[0] === ""))
    return { ok: true, skill, path: undefined, namesFolder };
  const checked = checkResourcePath(rest.join("/"));
  return checked.ok ? { ok: true, skill, path: checked.path, namesFolder } : { ok: false, reason: checked.reason };
}
