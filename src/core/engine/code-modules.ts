import { SkillsetError } from "../../errors/skillset-error.js";
import { checkResourcePath } from "../resources/resource-path.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { MAX_MODULE_BYTES, MODULE_EXTENSIONS, skillEntrypoint } from "../skill-module/skill-entrypoint.js";
import { importRefusalMessage } from "../tools/skill-tool-messages.js";
import type { EngineContext } from "./engine-context.js";
import type { SkillRequest } from "./skill-engine-types.js";
import { sourceOf } from "./skill-reader.js";
import { verificationProblem } from "./verify-skill.js";

/** How the model's code names a skill's module: `@/skills/<name>` (its entrypoint) or `@/skills/<name>/<path>`. */
export const SKILL_MODULE_PREFIX = "@/skills/";

/** What one run imported and what it was refused, for the run's event. */
export interface ImportLog {
  imported: string[];
  refused: string[];
}

/**
 * The sandbox's `loadModule` for one run: a specifier is accepted only as `@/skills/<loaded skill>` or a
 * path inside that skill's folder (the resource-path rules, no percent-encoding, a module extension); the
 * file is read through the skill's source, checked by `verifySkill` on every import (as every read of a
 * skill's file is), and its TypeScript stripped. `loaded` is the thread's loaded skills when the run
 * started: a skill unloaded before it cannot be imported.
 */
export function createModuleLoader(
  context: EngineContext,
  request: SkillRequest,
  loaded: readonly SkillMetadata[],
  log: ImportLog,
): (specifier: string) => Promise<{ source: string; specifier: string } | { error: string }> {
  const importable = loaded.filter(hasModule).map((skill) => skill.name);
  return async (specifier) => {
    const resolved = await resolveModule(context, request, loaded, specifier);
    if ("source" in resolved) {
      log.imported.push(resolved.specifier);
      return resolved;
    }
    log.refused.push(specifier);
    return { error: importRefusalMessage(resolved.reason, importable) };
  };
}

async function resolveModule(
  context: EngineContext,
  request: SkillRequest,
  loaded: readonly SkillMetadata[],
  specifier: string,
): Promise<{ source: string; specifier: string } | { reason: string }> {
  if (!specifier.startsWith(SKILL_MODULE_PREFIX))
    return {
      reason: `only loaded skills' modules can be imported, as "${SKILL_MODULE_PREFIX}<skill>" or "${SKILL_MODULE_PREFIX}<skill>/<path>"`,
    };
  const rest = specifier.slice(SKILL_MODULE_PREFIX.length);
  const slash = rest.indexOf("/");
  const name = slash === -1 ? rest : rest.slice(0, slash);
  const skill = loaded.find((candidate) => candidate.name === name);
  if (!skill) return { reason: `skill '${name}' is not loaded; load it with load_skill, then run the code again` };
  const path = slash === -1 ? entrypointPath(skill) : modulePath(rest.slice(slash + 1));
  if ("reason" in path) return path;
  // Checked on every import, as every read of a skill's file is: it may have changed since it was loaded.
  const problem = await verificationProblem(context, request, skill, "imported");
  if (problem) return { reason: `${problem}; it cannot be used until it passes verification` };
  let found: { path: string; text: string };
  try {
    found = await readModuleOrTypeScript(request, skill, path.path);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { reason: `cannot read ${path.path} in skill '${name}': ${message}` };
  }
  const { text } = found;
  const full = `${SKILL_MODULE_PREFIX}${name}/${found.path}`;
  // The TypeScript stripper and the parser load on first use: most agents never import a module.
  const { moduleJavaScript } = await import("../skill-module/module-javascript.js");
  const javascript = moduleJavaScript(full, text);
  if ("error" in javascript) return { reason: javascript.error };
  return { source: javascript.source, specifier: full };
}

/** Whether a skill names a usable module (`metadata.entrypoint`). */
export function hasModule(skill: SkillMetadata): boolean {
  const entry = skillEntrypoint(skill);
  return entry !== undefined && "path" in entry;
}

function entrypointPath(skill: SkillMetadata): { path: string } | { reason: string } {
  const entry = skillEntrypoint(skill);
  if (entry === undefined)
    return { reason: `skill '${skill.name}' has no module (its SKILL.md names no metadata.entrypoint)` };
  return "error" in entry ? { reason: entry.error } : entry;
}

// A file inside the skill, by the resource rules; `%` is refused outright, since a specifier may be decoded.
function modulePath(path: string): { path: string } | { reason: string } {
  if (path.includes("%")) return { reason: "percent-encoded paths are not allowed; write the file's name as it is" };
  const checked = checkResourcePath(path);
  if (!checked.ok) return { reason: checked.reason.replace("resources must", "modules must") };
  if (!MODULE_EXTENSIONS.some((extension) => checked.path.endsWith(extension)))
    return { reason: `only ${MODULE_EXTENSIONS.join(", ")} files can be imported` };
  return { path: checked.path };
}

// TypeScript's own convention: `./row.js` in a `.ts` module names `row.ts` (and `.mjs` names `.mts`) when the
// skill ships only its TypeScript sources, as `tsc` resolves it.
async function readModuleOrTypeScript(
  request: SkillRequest,
  skill: SkillMetadata,
  path: string,
): Promise<{ path: string; text: string }> {
  try {
    return { path, text: await readModule(request, skill, path) };
  } catch (error) {
    const typescript = path.endsWith(".js")
      ? `${path.slice(0, -3)}.ts`
      : path.endsWith(".mjs")
        ? `${path.slice(0, -4)}.mts`
        : undefined;
    if (typescript === undefined) throw error;
    try {
      return { path: typescript, text: await readModule(request, skill, typescript) };
    } catch {
      throw error;
    }
  }
}

/** A file of the skill as module text: through its source, within the module size limit, strict UTF-8. */
export async function readModule(request: SkillRequest, skill: SkillMetadata, path: string): Promise<string> {
  const source = await sourceOf(request, skill);
  if (!source.readFile) throw new SkillsetError("cannot-read", "its source cannot read files");
  const bytes = await source.readFile(skill, path, MAX_MODULE_BYTES);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SkillsetError("not-utf8", "the file is not valid UTF-8");
  }
}
