import { checkResourcePath } from "../resources/resource-path.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/** The `metadata` key naming a skill's JavaScript or TypeScript module, as deepagents reads it. */
export const ENTRYPOINT_KEY = "entrypoint";

/**
 * Largest module read: 1 MiB of UTF-8, far beyond a hand-written skill module (a bundled
 * library fits), so a huge file costs no parse. Larger modules are reported as too large.
 */
export const MAX_MODULE_BYTES = 1024 * 1024;

/** The file extensions an entrypoint may have: ES modules, in JavaScript or TypeScript. */
export const MODULE_EXTENSIONS = [".js", ".mjs", ".ts", ".mts"] as const;

/** A checked entrypoint (`path`: relative to the skill's folder, `/`-separated, no `.` parts), or why it cannot be used. */
export type CheckedEntrypoint = { path: string } | { error: string };

// A URL or a drive letter (`file:`, `data:`, `https:`, `C:`): an entrypoint is a path in the folder.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Checks a `metadata.entrypoint` value: a path relative to the skill's folder (the rules of
 * resource paths: no `..`, not absolute, `/` separators, no control characters or look-alikes in
 * any Unicode normal form), not a URL, not percent-encoded (the path becomes part of an import
 * specifier, where `%2e%2e` could be decoded), ending in `.js`, `.mjs`, `.ts` or `.mts`. A leading
 * `./` is accepted and dropped. Whether the file exists is for the caller, who can read it.
 */
export function checkEntrypoint(value: string): CheckedEntrypoint {
  const problem = (reason: string) => ({
    error: `metadata.${ENTRYPOINT_KEY} '${value}' cannot be used: ${reason}`,
  });
  if (SCHEME.test(value) && !/^[A-Za-z]:[\\/]/.test(value))
    return problem("it must be a path inside the skill's folder, not a URL");
  if (value.includes("%")) return problem("percent-encoded paths are not allowed; write the file's name as it is");
  const checked = checkResourcePath(value);
  if (!checked.ok) return problem(checked.reason.replace("resources must", "the module must"));
  if (value.endsWith("/")) return problem("it names a folder; name the module's file");
  if (/\.d\.m?ts$/.test(checked.path)) return problem("a declaration file holds no code; name the module itself");
  const extension = /\.[^./]*$/.exec(checked.path)?.[0];
  if (!MODULE_EXTENSIONS.some((allowed) => allowed === extension))
    return problem(
      `${extension ? `'${extension}' files` : "files without an extension"} cannot be imported; the module must end in ${MODULE_EXTENSIONS.join(", ")}`,
    );
  return { path: checked.path };
}

/** The skill's checked entrypoint from its `metadata.entrypoint`, or `undefined` when it names none. */
export function skillEntrypoint(skill: Pick<SkillMetadata, "metadata">): CheckedEntrypoint | undefined {
  const value = Object.hasOwn(skill.metadata, ENTRYPOINT_KEY) ? skill.metadata[ENTRYPOINT_KEY] : undefined;
  return value === undefined ? undefined : checkEntrypoint(value);
}

/** Whether a module path is TypeScript (stripped before it runs) rather than JavaScript. */
export function isTypeScriptPath(path: string): boolean {
  return path.endsWith(".ts") || path.endsWith(".mts");
}
