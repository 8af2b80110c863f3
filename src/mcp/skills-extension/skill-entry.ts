import { createHash } from "node:crypto";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";
import { listServedFiles, MAX_SKILL_BYTES } from "./served-files.js";
import { frontmatterObject } from "./skill-frontmatter.js";
import { skillUri } from "./skill-uri.js";

/** The Skills extension's identifier, under which servers declare it in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** One file of a {@link SkillEntry}: its URI, `sha256:` digest and size in bytes. */
export interface SkillEntryFile {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits over the file's raw bytes. */
  digest: string;
  size: number;
}

/** A skill as the Skills extension describes it in `skills/list` and `skills/get`. */
export interface SkillEntry {
  /** The URI of the skill's `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` frontmatter as a JSON object, with every field the author wrote. */
  frontmatter: Record<string, unknown>;
  /** Every file of the skill, `SKILL.md` included, or `"dynamic"` when the server cannot publish digests. */
  resources: SkillEntryFile[] | "dynamic";
}

/** The `sha256:<hex>` digest of some bytes, as Skill entries carry it. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * A skill's entry, from the bytes the source holds now: its frontmatter and every file it
 * serves with digest and size. `ok: false` says why the skill is not served (over the limits,
 * frontmatter that is not YAML, a name that is not the frontmatter's, a file that cannot be read).
 */
export async function buildSkillEntry(
  source: SkillSource,
  skill: SkillMetadata,
): Promise<{ ok: true; entry: SkillEntry } | { ok: false; reason: string }> {
  const listed = await listServedFiles(source, skill);
  if (!listed.ok) return listed;
  try {
    const skillFile = await source.readSkill(skill);
    // The byte-order mark is kept, as in the bytes clients get: a SKILL.md must start with `---`.
    const frontmatter = frontmatterObject(new TextDecoder("utf-8", { ignoreBOM: true }).decode(skillFile));
    if (frontmatter.name !== skill.name)
      return {
        ok: false,
        reason: `its frontmatter name ${JSON.stringify(frontmatter.name)} is not the name it is served under ('${skill.name}')`,
      };
    const resources: SkillEntryFile[] = [
      { uri: skillUri(skill.name), digest: sha256Digest(skillFile), size: skillFile.byteLength },
    ];
    let total = skillFile.byteLength;
    for (const file of listed.files.slice(1)) {
      if (!source.readFile) throw new SkillsetError("cannot-read", "its source cannot read files");
      const bytes = await source.readFile(skill, file.relativePath, Math.max(0, MAX_SKILL_BYTES - total));
      total += bytes.byteLength;
      resources.push({
        uri: skillUri(skill.name, file.relativePath),
        digest: sha256Digest(bytes),
        size: bytes.byteLength,
      });
    }
    return { ok: true, entry: { uri: skillUri(skill.name), frontmatter, resources } };
  } catch (error) {
    const tooLarge = SkillsetError.isInstance(error) && error.code === "too-large";
    return {
      ok: false,
      reason: tooLarge
        ? `its files hold more than the Skills extension's limit of ${MAX_SKILL_BYTES} bytes (16 MiB)`
        : error instanceof Error
          ? error.message
          : String(error),
    };
  }
}
