import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import { readArchiveFiles } from "./archive-files.js";
import { ArchiveProblem, MAX_DOWNLOAD_BYTES, type ArchiveFiles } from "./archive-limits.js";
import { boundedFetch } from "./bounded-fetch.js";
import { writeSkillFolder } from "./well-known-cache.js";
import type { WellKnownEntry } from "./well-known-index.js";
import type { WellKnownState } from "./well-known-state.js";

/**
 * The cache folder of a listed skill, downloaded first when it is not there: the artifact is
 * checked against the index's digest before anything else is done with it, an archive is
 * read in memory within the caps, and only then is the folder written (atomically), named by
 * the digest. Concurrent calls for one skill share the download.
 */
export async function verifiedSkillFolder(state: WellKnownState, skill: SkillMetadata): Promise<string> {
  const entry = state.held.get(skill.path);
  if (!entry) throw new SkillsetError("not-found", `${state.site.href} no longer lists skill '${skill.name}'`);
  const folder = dirname(skill.path);
  if (existsSync(join(folder, "SKILL.md"))) return folder;
  let download = state.downloads.get(entry.digest);
  if (!download) {
    download = downloadInto(state, entry, folder).finally(() => state.downloads.delete(entry.digest));
    state.downloads.set(entry.digest, download);
  }
  await download;
  return folder;
}

async function downloadInto(state: WellKnownState, entry: WellKnownEntry, folder: string): Promise<void> {
  const what = `Skill '${entry.name}'`;
  const bytes = await boundedFetch(state.fetch, entry.url, {
    timeoutMs: state.downloadTimeoutMs,
    maxBytes: MAX_DOWNLOAD_BYTES,
    what,
  });
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (digest !== entry.digest) {
    throw new SkillsetError(
      "verification-failed",
      `${what} from ${entry.url.href} does not match the digest its index gives (${entry.digest}; the download is ${digest}); refused, nothing of it is used`,
    );
  }
  let files: ArchiveFiles;
  if (entry.type === "skill-md") files = new Map([["SKILL.md", bytes]]);
  else {
    try {
      files = await readArchiveFiles(bytes);
    } catch (error) {
      if (!(error instanceof ArchiveProblem)) throw error;
      throw new SkillsetError(
        "archive-refused",
        `The archive of skill '${entry.name}' at ${entry.url.href} is refused: ${error.message}`,
      );
    }
  }
  await writeSkillFolder(folder, files);
}
