import { isInsideResolvedFolder } from "../../fs/folder-prefix.js";

/**
 * The `skills` CLI's caps for a downloaded archive (its `DEFAULT_*` constants, 1.7.4): what is
 * downloaded, what it may extract to, and how many files. The index has its own cap.
 */
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_EXTRACTED_BYTES = 25 * 1024 * 1024;
export const MAX_ARCHIVE_FILES = 1000;
export const MAX_INDEX_BYTES = 1024 * 1024;

/** A skill's files as an archive holds them: by confined relative path (`/` separators), contents. */
export type ArchiveFiles = Map<string, Uint8Array>;

/** Why an archive cannot be used; the caller names the skill and URL. */
export class ArchiveProblem extends Error {}

/**
 * An entry's path as a relative path below the skill folder, or an {@link ArchiveProblem}:
 * absolute paths, drive letters, backslashes, NUL and `..` are refused; `.` and empty parts go.
 */
export function confinedPath(raw: string): string {
  if (raw.includes("\0") || raw.includes("\\"))
    throw new ArchiveProblem(`entry ${JSON.stringify(raw)} has a NUL or backslash in its path`);
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw))
    throw new ArchiveProblem(`entry ${JSON.stringify(raw)} has an absolute path`);
  const parts = raw.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes(".."))
    throw new ArchiveProblem(`entry ${JSON.stringify(raw)} leads out of the skill folder ('..')`);
  return parts.join("/");
}

/** Counts an archive's files and bytes as they are read, refusing past the caps. */
export function createTally(files: ArchiveFiles) {
  let bytes = 0;
  return {
    /** Called before a file's contents are read, with the size its header declares. */
    reserve(path: string, size: number) {
      if (files.size >= MAX_ARCHIVE_FILES) throw new ArchiveProblem(`it holds more than ${MAX_ARCHIVE_FILES} files`);
      bytes += size;
      if (bytes > MAX_EXTRACTED_BYTES)
        throw new ArchiveProblem(`it extracts to more than ${MAX_EXTRACTED_BYTES} bytes (25 MiB)`);
      if (files.has(path)) throw new ArchiveProblem(`it holds ${path} twice`);
      for (const other of files.keys()) {
        if (isInsideResolvedFolder(path, other, "/") || isInsideResolvedFolder(other, path, "/"))
          throw new ArchiveProblem(`${path} and ${other} are both a file and a folder`);
      }
    },
  };
}
