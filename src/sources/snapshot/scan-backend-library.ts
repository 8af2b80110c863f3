import type { Diagnostic } from "../../core/diagnostic.js";
import { collectSkills, inspectSkillFile } from "../../core/catalog/collect-skills.js";
import type { SnapshotSkill } from "../../core/catalog/library-snapshot.js";
import type { InspectSkillResult } from "../../core/skill-file/inspect-skill.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";
import { sha256Hex } from "../../core/text/sha256-hex.js";
import { isContained } from "../backend-source.js";
import { canGlob, downloadAll, globFiles, isProbe, listSkillFiles, type SkillsBackend } from "../skills-backend.js";
import { filesOfSkills, SNAPSHOT_FILE_LIMITS } from "./snapshot-files.js";
import { storeLibraryFiles } from "./store-library-files.js";

/** Where a snapshot source's library is on its backend. */
export interface LibraryPlace {
  /** The folder of skills, ending in `separator`. */
  root: string;
  separator: string;
  /** The source's id. */
  id: string;
  recursive: boolean;
  /** The store that keeps the snapshot: the scan reads the library through it when it is the backend's own. */
  store?: unknown;
}

// SKILL.md files are fetched this many at a time, so a large library is never all in memory.
const DOWNLOAD_BATCH = 500;

/**
 * Every skill of the library, read whole: one listing of every file below the root when the
 * backend can glob (deepagents' StoreBackend reads its namespace once for it; over the snapshot's
 * own store, the scan reads that namespace itself, see store-library-files.ts), else its skill
 * folders one by one through `folders`; each `SKILL.md` downloaded in batches, inspected and
 * hashed. This is the slow scan a snapshot spares the workers that join later.
 */
export async function scanBackendLibrary(
  backend: SkillsBackend,
  place: LibraryPlace,
  folders: SkillSource,
): Promise<{ skills: SnapshotSkill[]; diagnostics: Diagnostic[] }> {
  const { root, separator, id, recursive } = place;
  const fromStore = place.store === undefined ? undefined : await storeLibraryFiles(backend, place.store, root);
  const everything = fromStore
    ? fromStore.files.filter((file) => isContained(file.path, root))
    : canGlob(backend)
      ? (await globFiles(backend, "**", root, separator)).filter((file) => isContained(file.path, root))
      : undefined;
  const listed = everything ?? (await listSkillFiles(backend, root, separator, recursive));
  // A folder the backend could not list, and with no SKILL.md to read, holds no skill.
  const probes = new Set(listed.filter(isProbe).map((file) => file.path));
  const skillFiles = listed
    .map((file) => file.path)
    .filter((path) => isSkillFile(path, place))
    .sort();
  const topFile = skillFiles.find((path) => path === `${root}SKILL.md`);
  const paths = topFile ? [topFile] : skillFiles;

  const results: InspectSkillResult[] = [];
  const digests = new Map<string, string>();
  for (let start = 0; start < paths.length; start += DOWNLOAD_BATCH) {
    const batch = paths.slice(start, start + DOWNLOAD_BATCH);
    const contents = fromStore ? fromStore.contents : await downloadAll(backend, batch);
    for (const path of batch) {
      const content = contents.get(path);
      if (content === undefined) {
        if (!probes.has(path)) results.push({ diagnostics: [readFailure(path, id)] });
        continue;
      }
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      results.push(inspectSkillFile(bytes, path, id));
      digests.set(path, await sha256Hex(bytes));
    }
  }
  const diagnostics: Diagnostic[] = [];
  const skills = collectSkills(results, id, diagnostics);
  const files = everything ? filesOfSkills(skills, everything, separator) : await listEach(skills, folders);
  return {
    skills: skills.map((skill) => ({ skill, digest: digests.get(skill.path)!, ...files.get(skill.path)! })),
    diagnostics,
  };
}

// A backend that cannot glob lists each skill's folder.
async function listEach(
  skills: SkillMetadata[],
  folders: SkillSource,
): Promise<Map<string, Pick<SnapshotSkill, "files" | "filesTruncated">>> {
  const files = new Map<string, Pick<SnapshotSkill, "files" | "filesTruncated">>();
  for (const skill of skills) {
    const listing = await folders.listFiles(skill, SNAPSHOT_FILE_LIMITS);
    files.set(skill.path, {
      files: listing.files.map(({ relativePath, size }) =>
        size === undefined ? { relativePath } : { relativePath, size },
      ),
      filesTruncated: listing.truncated,
    });
  }
  return files;
}

// A SKILL.md the scan takes: any below the root when recursive, else the root's or its children's.
function isSkillFile(path: string, { root, separator, recursive }: LibraryPlace): boolean {
  if (!path.endsWith(`${separator}SKILL.md`) && path !== `${root}SKILL.md`) return false;
  if (recursive) return true;
  const rest = path.slice(root.length);
  return rest === "SKILL.md" || rest.split(separator).length === 2;
}

function readFailure(path: string, source: string): Diagnostic {
  return { severity: "error", code: "cannot-read", file: path, message: `Failed to read ${path}`, source };
}
