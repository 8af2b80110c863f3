import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { FileListLimits, SkillFile, SkillFileListing } from "../../core/skill-source.js";
import { heldSkillAt, type McpSourceState } from "./mcp-source-state.js";

/**
 * The files of a listed skill other than its `SKILL.md`, within `limits`: those its entry lists,
 * or, for dynamic content, those `resources/directory/read` finds when the server offers it
 * (`directoryRead: true` in its Skills extension settings), else none.
 */
export async function listHeldSkillFiles(
  state: Pick<McpSourceState, "connection" | "held" | "label">,
  skill: SkillMetadata,
  limits: FileListLimits,
): Promise<SkillFileListing> {
  const current = heldSkillAt(state, skill.path);
  if (current.files === "dynamic") {
    const settings = state.connection.skillsExtension() as { directoryRead?: unknown } | undefined;
    return settings?.directoryRead === true
      ? state.connection.readDirectory(current.root, limits)
      : { files: [], truncated: false };
  }
  const files: SkillFile[] = [];
  let truncated = false;
  for (const [relativePath, file] of current.files) {
    if (relativePath === "SKILL.md") continue;
    if (relativePath.split("/").length - 1 > limits.maxDepth || files.length >= limits.maxFiles) truncated = true;
    else files.push({ path: file.uri, relativePath, size: file.size });
  }
  return { files, truncated };
}
