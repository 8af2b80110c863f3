import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES, type SkillSource } from "../skill-source.js";
import type { EngineContext } from "./engine-context.js";

/** The request's source `skill` came from; a `cannot-read` error when this agent lacks it. */
export async function sourceOf(request: SkillRequest, skill: SkillMetadata): Promise<SkillSource> {
  const source = (await request.sources()).find((candidate) => candidate.id === skill.source);
  if (!source) throw new SkillsetError("cannot-read", `its source '${skill.source}' is not configured in this agent`);
  return source;
}

/** A skill's `SKILL.md` as text, within the size limit and valid UTF-8, else a typed error. */
export async function readSkillText(source: SkillSource, skill: SkillMetadata): Promise<string> {
  const bytes = await source.readSkill(skill);
  if (bytes.byteLength > MAX_SKILL_FILE_BYTES)
    throw new SkillsetError(
      "too-large",
      `Skill file at ${skill.path} exceeds maximum size (${MAX_SKILL_FILE_BYTES} bytes)`,
    );
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SkillsetError("not-utf8", `Failed to decode skill file at ${skill.path}: ${(error as Error).message}`);
  }
}

/** The model-facing error for a skill that cannot be read; each names the file. */
export function readFailureMessage(path: string, error: unknown): string {
  if (SkillsetError.isInstance(error) && (error.code === "too-large" || error.code === "not-utf8"))
    return `Error: ${error.message}`;
  const reason = error instanceof Error ? error.message : String(error);
  return `Error: Failed to read skill file at ${path}: ${reason}`;
}

/**
 * A loaded skill and its source, for the tools that work in a loaded skill's folder; else the
 * model-facing error saying it is not loaded or no longer available.
 */
export async function loadedSkillSource(
  context: EngineContext,
  request: SkillRequest,
  name: string,
): Promise<{ skill: SkillMetadata; source: SkillSource } | { error: string }> {
  if (!request.state.loaded.includes(name))
    return { error: `Error: Skill '${name}' is not loaded. Load it with load_skill first.` };
  const skill = (await context.catalogs.resolve(request)).byName.get(name);
  const source = skill && (await sourceOf(request, skill).catch(() => undefined));
  if (!skill || !source) return { error: `Error: Skill '${name}' is no longer available from its source.` };
  return { skill, source };
}
