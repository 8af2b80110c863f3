import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES } from "../../core/skill-source.js";
import { heldSkillAt, type McpSourceState } from "./mcp-source-state.js";
import { getSkillResultSchema, readSkillEntry, sameEntry, type HeldSkill } from "./remote-skill-entry.js";
import { MAX_SKILL_BYTES } from "../skills-extension/served-files.js";
import { sha256Digest } from "../skills-extension/skill-entry.js";
import { frontmatterMatches } from "../skills-extension/skill-frontmatter.js";

/**
 * A listed skill's `SKILL.md`, verified (see {@link readVerifiedFile}). When the skill's scripts
 * may run, every file of it is read, verified, and copied to its private folder first.
 */
export async function readVerifiedSkill(state: McpSourceState, skill: SkillMetadata): Promise<Uint8Array> {
  const bytes = await readVerifiedFile(state, skill, "SKILL.md", MAX_SKILL_FILE_BYTES);
  const current = state.held.get(skill.path);
  if (state.copies && current && current.files !== "dynamic") {
    const files: Array<[string, Uint8Array]> = [];
    for (const path of current.files.keys())
      files.push([path, path === "SKILL.md" ? bytes : await readVerifiedFile(state, skill, path, MAX_SKILL_BYTES)]);
    state.copies.write(current.root, files);
  }
  return bytes;
}

/**
 * A file of a listed skill, checked against the entry it is held under: listed, its size and
 * `sha256:` digest, and for `SKILL.md` the frontmatter. On a mismatch a fresh `skills/get`
 * decides: the same entry means the content is not what the server published (refused, with
 * `verification-failed`); a changed entry is held from now on (the next scan lists again) and
 * the file is read again under it. Nothing is read, not even from the cache, once the server
 * has gone away.
 */
export async function readVerifiedFile(
  state: McpSourceState,
  skill: SkillMetadata,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const current = heldSkillAt(state, skill.path);
  if (!state.connection.isOpen())
    throw new SkillsetError("mcp-unavailable", `MCP server '${state.label}' is unavailable: the connection is closed`);
  try {
    return await readChecked(state, current, path, maxBytes);
  } catch (error) {
    if (!SkillsetError.isInstance(error) || error.code !== "verification-failed") throw error;
    const fresh = await freshEntry(state, current.entry.uri);
    if (sameEntry(fresh.entry, current.entry)) throw error;
    state.held.set(skill.path, fresh);
    state.listedAt = -Infinity;
    return readChecked(state, fresh, path, maxBytes);
  }
}

// The skill's entry as the server gives it now, for the same URI.
async function freshEntry(state: McpSourceState, uri: string): Promise<HeldSkill> {
  const { skill } = await state.connection.request("skills/get", { uri }, getSkillResultSchema);
  const read = readSkillEntry(skill);
  if (!read.ok || read.held.entry.uri !== uri)
    throw new SkillsetError(
      "verification-failed",
      `MCP server '${state.label}' no longer serves ${uri} as it was listed${read.ok ? "" : `: ${read.reason}`}`,
    );
  if (read.held.files === "dynamic" && !state.allowDynamic)
    throw new SkillsetError(
      "verification-failed",
      `${uri} of MCP server '${state.label}' is now dynamic and cannot be verified (allowDynamic is off)`,
    );
  return read.held;
}

// One read under one entry: from the cache or the server, checked, and remembered when it has a digest.
async function readChecked(
  state: McpSourceState,
  skill: HeldSkill,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const { label } = state;
  const listed = skill.files === "dynamic" ? undefined : skill.files.get(path);
  if (skill.files !== "dynamic" && !listed)
    throw new SkillsetError(
      "verification-failed",
      `${path} is not a file of ${skill.entry.uri} as MCP server '${label}' listed it`,
    );
  if (listed && listed.size > maxBytes)
    throw new SkillsetError("too-large", `${path} is larger than ${maxBytes} bytes`);
  const uri = listed?.uri ?? `${skill.root}/${path.split("/").map(encodeURIComponent).join("/")}`;
  const key = listed && `${listed.uri}\n${listed.digest}`;
  let bytes = key === undefined ? undefined : state.cache.get(key);
  if (!bytes) {
    bytes = await state.connection.readBytes(uri, maxBytes);
    if (listed) {
      const digest = sha256Digest(bytes);
      if (bytes.byteLength !== listed.size || digest !== listed.digest) {
        throw new SkillsetError(
          "verification-failed",
          `${uri} from MCP server '${label}' is not what its entry lists (${bytes.byteLength} bytes, ${digest}; the entry says ${listed.size} bytes, ${listed.digest}); refused`,
        );
      }
    } else {
      // Dynamic content has no digests; the extension's 16 MiB per skill bounds what is fetched.
      const total = (state.retrieved.get(skill.root) ?? 0) + bytes.byteLength;
      if (total > MAX_SKILL_BYTES)
        throw new SkillsetError(
          "too-large",
          `${skill.entry.uri} has sent more than ${MAX_SKILL_BYTES} bytes (16 MiB); refused`,
        );
      state.retrieved.set(skill.root, total);
    }
  }
  if (
    path === "SKILL.md" &&
    !frontmatterMatches(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), skill.entry.frontmatter)
  ) {
    throw new SkillsetError(
      "verification-failed",
      `the frontmatter of ${uri} from MCP server '${label}' is not the frontmatter its entry lists; refused`,
    );
  }
  if (key !== undefined) state.cache.remember(key, bytes);
  return bytes;
}
