import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { isInsideFolder } from "../../fs/path-inside.js";
import type { ArchiveFiles } from "./archive-limits.js";

/**
 * The folder that holds one site's verified skills and last index: below `cacheDir`, named by
 * the site's host and port and a hash of its full URL, so two sites (or two paths of one
 * site) never share a folder.
 */
export function siteCacheFolder(cacheDir: string, site: URL): string {
  const host = `${site.hostname}${site.port ? `-${site.port}` : ""}`.replace(/[^A-Za-z0-9.-]/g, "_");
  const hash = createHash("sha256").update(site.href).digest("hex").slice(0, 12);
  return join(resolve(cacheDir), "well-known", `${host}-${hash}`);
}

/** The folder a skill with this `sha256:` digest is extracted to, below its site's folder. */
export function skillCacheFolder(siteFolder: string, digest: string): string {
  return join(siteFolder, digest.replace(/^sha256:/, ""));
}

/**
 * Writes a verified skill's files as `folder`, atomically: into a fresh temporary folder
 * beside it, renamed into place when complete, so a reader sees all of it or none. When
 * another process got there first, its copy (of the same digest) is kept.
 */
export async function writeSkillFolder(folder: string, files: ArchiveFiles): Promise<void> {
  const parent = dirname(folder);
  await mkdir(parent, { recursive: true });
  const temporary = await mkdtemp(join(parent, ".partial-"));
  try {
    for (const [path, bytes] of files) {
      const target = resolve(temporary, path);
      // The archive readers confine paths already; this keeps a slip from ever writing outside.
      if (target === temporary || !isInsideFolder(temporary, target))
        throw new Error(`${path} leads outside the skill folder`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes, { flag: "wx", mode: 0o644 });
    }
    await rename(temporary, folder);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(join(folder, "SKILL.md"))) throw error;
  }
}

/** The last index a site served, as kept for when it cannot be reached. */
export interface IndexCopy {
  /** The URL it was fetched from. */
  url: string;
  /** When, as an ISO date. */
  fetchedAt: string;
  /** Its text. */
  text: string;
}

/** Keeps `copy` as the site's last index (replacing the previous one atomically). */
export async function writeIndexCopy(siteFolder: string, copy: IndexCopy): Promise<void> {
  await mkdir(siteFolder, { recursive: true });
  const temporary = join(siteFolder, `.index-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(temporary, JSON.stringify(copy));
  await rename(temporary, join(siteFolder, "index.json"));
}

/** The site's last index, or undefined when none was kept (or it is unreadable). */
export async function readIndexCopy(siteFolder: string): Promise<IndexCopy | undefined> {
  try {
    const copy = JSON.parse(await readFile(join(siteFolder, "index.json"), "utf8")) as Partial<IndexCopy>;
    if (typeof copy.url === "string" && typeof copy.fetchedAt === "string" && typeof copy.text === "string")
      return copy as IndexCopy;
  } catch {
    // None kept yet, or not ours: as if none.
  }
  return undefined;
}
