import { SkillsetError } from "../errors/skillset-error.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../core/skill-source.js";
import { createLocalSource } from "../sources/local-source.js";
import { CliError } from "./cli-error.js";
import { allowedRoots, type SourceOptions } from "./open-catalog.js";

/**
 * The source `info` and `render` read one skill through: a folder's skill from its folder alone;
 * any other (a site's, a package's) from the source that listed it, which downloads and verifies
 * a site's skill on first use. Its `SKILL.md` is read here, so a skill that cannot be had (a
 * digest mismatch, a site down with nothing cached) fails the command with the source's own
 * reason rather than as a file missing later.
 */
export async function skillOwnSource(
  skill: SkillMetadata,
  sources: readonly SkillSource[],
  options: SourceOptions,
): Promise<SkillSource> {
  const own = skill.source.startsWith("local:") ? undefined : sources.find((source) => source.id === skill.source);
  if (!own)
    return createLocalSource({ path: skillDirectory(skill), watch: false, allowedRoots: allowedRoots(options) });
  try {
    await own.readSkill(skill);
  } catch (error) {
    throw cliReadError(error);
  }
  return own;
}

// A source's read failure as the CLI reports it: a refusal (digest, archive) or an unreadable skill.
function cliReadError(error: unknown): CliError {
  const refused =
    SkillsetError.isInstance(error) && (error.code === "verification-failed" || error.code === "archive-refused");
  return new CliError(refused ? "refused" : "cannot-read", error instanceof Error ? error.message : String(error));
}
