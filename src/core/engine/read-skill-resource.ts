import { SkillsetError } from "../../errors/skillset-error.js";
import { DEFAULT_RESOURCE_LINES, MAX_RESOURCE_BYTES, renderResourcePage } from "../resources/read-resource.js";
import { checkResourcePath } from "../resources/resource-path.js";
import type { SkillReply, SkillRequest } from "./skill-engine-types.js";
import type { EngineContext } from "./engine-context.js";
import { loadedSkillSource } from "./skill-reader.js";
import { verificationRefusal } from "./verify-skill.js";

/** Reads a file of a loaded skill, a page of lines at a time; a path that leaves its folder is refused. */
export async function readSkillResource(
  context: EngineContext,
  request: SkillRequest,
  input: { skill: string; path: string; offset?: number; limit?: number },
): Promise<SkillReply> {
  const found = await loadedSkillSource(context, request, input.skill);
  if ("error" in found) return { ok: false, text: found.error };
  const checked = checkResourcePath(input.path);
  if (!checked.ok) return { ok: false, text: `Error: Cannot read '${input.path}': ${checked.reason}.` };
  // Checked again: its files may have changed since it was loaded.
  const refusal = await verificationRefusal(context, request, found.skill, "read");
  if (refusal) return { ok: false, text: refusal };
  if (!found.source.readFile)
    return { ok: false, text: `Error: The source of skill '${input.skill}' cannot read resources.` };
  try {
    const bytes = await found.source.readFile(found.skill, checked.path, MAX_RESOURCE_BYTES);
    return {
      ok: true,
      text: renderResourcePage(checked.path, bytes, input.offset ?? 0, input.limit ?? DEFAULT_RESOURCE_LINES),
    };
  } catch (error) {
    const message = SkillsetError.isInstance(error) ? error.message : String(error);
    return { ok: false, text: `Error: Cannot read '${checked.path}' in skill '${input.skill}': ${message}.` };
  }
}
