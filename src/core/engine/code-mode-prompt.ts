import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { ModuleExport } from "../skill-module/module-exports.js";
import { skillEntrypoint } from "../skill-module/skill-entrypoint.js";
import { RUN_CODE } from "../tools/skill-tool-definitions.js";
import { contentHash } from "../text/content-hash.js";
import { readModule, SKILL_MODULE_PREFIX } from "./code-modules.js";
import type { EngineContext } from "./engine-context.js";
import type { SkillRequest } from "./skill-engine-types.js";

/** Exports listed per module at most; the rest are counted. */
const MAX_LISTED_EXPORTS = 40;
/** Module texts whose export lines are kept, so a model call does not parse them again. */
const MAX_CACHED_MODULES = 64;

/**
 * With code mode on, the prompt's lines on the loaded skills' modules: what `run_code` can import from each
 * (names, signatures, the first sentence of their doc comments). Empty when no loaded skill names a module.
 * Read on each model call (a module may change on disk), parsed once per text; a skill that fails
 * `verifySkill` shows no export, since its text is not the one reviewed.
 */
export async function codeModulesSection(
  context: EngineContext,
  request: SkillRequest,
  loaded: readonly SkillMetadata[],
): Promise<string> {
  const cache = context.code?.exportLines ?? new Map<string, string>();
  const lines: string[] = [];
  for (const skill of loaded) {
    const entry = skillEntrypoint(skill);
    if (entry === undefined) continue;
    const head = `- ${SKILL_MODULE_PREFIX}${skill.name}`;
    if ("error" in entry) lines.push(`${head}: cannot be imported: ${entry.error}`);
    else lines.push(`${head} (${entry.path})${await exportLines(context, request, skill, entry.path, cache)}`);
  }
  if (lines.length === 0) return "";
  return [
    `Modules of loaded skills, for ${RUN_CODE.name} (\`import { name } from "${SKILL_MODULE_PREFIX}<skill>"\`):`,
    ...lines,
  ].join("\n");
}

async function exportLines(
  context: EngineContext,
  request: SkillRequest,
  skill: SkillMetadata,
  path: string,
  cache: Map<string, string>,
): Promise<string> {
  if (!(await passesVerification(context, skill))) return ": not shown, the skill does not pass verification";
  let text: string;
  try {
    text = await readModule(request, skill, path);
  } catch (error) {
    return `: cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  // A hash, not the text (up to 1 MiB), keys the cache: hashed once per model call either way.
  const key = `${skill.name}\0${path}\0${contentHash(text)}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  // The parsers load on first use (they are a tenth of the engine's start-up).
  const { moduleExports } = await import("../skill-module/module-exports.js");
  const found = moduleExports(`${SKILL_MODULE_PREFIX}${skill.name}/${path}`, text);
  const rendered = "error" in found ? `: cannot be imported: ${found.error}` : renderExports(found.exports);
  if (cache.size >= MAX_CACHED_MODULES) cache.delete(cache.keys().next().value!);
  cache.set(key, rendered);
  return rendered;
}

function renderExports(exports: readonly ModuleExport[]): string {
  if (exports.length === 0) return ": exports nothing";
  const shown = exports.slice(0, MAX_LISTED_EXPORTS).map((item) => `\n  - ${exportLine(item)}`);
  const more = exports.length - shown.length;
  return `:${shown.join("")}${more > 0 ? `\n  - … and ${more} more exports` : ""}`;
}

function exportLine(item: ModuleExport): string {
  const what =
    item.name === "*"
      ? `everything exported by ${item.from ?? "another module"}`
      : (item.signature ?? (item.kind === "function" ? `${item.name}()` : `${item.name} (${item.kind})`));
  const named = item.name === "default" && item.signature ? `default: ${what}` : what;
  return item.summary ? `${named} — ${item.summary}` : named;
}

// Quiet: this runs on every model call, and imports report the problem (with its event) when tried.
async function passesVerification(context: EngineContext, skill: SkillMetadata): Promise<boolean> {
  const verify = context.options.verifySkill;
  if (!verify) return true;
  try {
    return (await verify(skill))?.refuse !== true;
  } catch {
    return false;
  }
}
