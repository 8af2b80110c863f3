import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { ArchiveProblem, confinedPath, createTally, MAX_ARCHIVE_FILES, type ArchiveFiles } from "./archive-limits.js";

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * The regular files of a zip archive, read in memory (nothing is written): entries with a link,
 * device or other special type in their Unix mode are refused, as are encrypted entries and
 * paths {@link confinedPath} refuses. Sizes are checked on the declared sizes before inflating,
 * and yauzl checks that no entry inflates past what it declared (a zip bomb).
 */
export async function readZipFiles(bytes: Uint8Array): Promise<ArchiveFiles> {
  const zip = await openZip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (zip.entryCount > MAX_ARCHIVE_FILES) {
    zip.close();
    throw new ArchiveProblem(`it holds more than ${MAX_ARCHIVE_FILES} files`);
  }
  const files: ArchiveFiles = new Map();
  const tally = createTally(files);
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const kind = (entry.externalFileAttributes >>> 16) & S_IFMT;
      const isFolder = entry.fileName.endsWith("/") || kind === S_IFDIR;
      if (kind !== 0 && kind !== S_IFREG && !isFolder)
        throw new ArchiveProblem(`entry ${JSON.stringify(entry.fileName)} is a link or special file`);
      const path = confinedPath(entry.fileName);
      if (isFolder || path === "") continue;
      if (entry.isEncrypted()) throw new ArchiveProblem(`entry ${JSON.stringify(entry.fileName)} is encrypted`);
      tally.reserve(path, entry.uncompressedSize);
      files.set(path, await entryBytes(zip, entry));
    }
  } finally {
    zip.close();
  }
  return files;
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, decodeStrings: true, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => {
        if (error) reject(new ArchiveProblem(`it is not a readable zip archive: ${error.message}`));
        else resolve(zip);
      },
    );
  });
}

// The next entry, or undefined at the end; yauzl's own refusals (absolute or '..' names) become problems.
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => {
      zip.removeAllListeners("entry").removeAllListeners("end").removeAllListeners("error");
      settle();
    };
    zip.once("entry", (entry: yauzl.Entry) => done(() => resolve(entry)));
    zip.once("end", () => done(() => resolve(undefined)));
    zip.once("error", (error: Error) =>
      done(() => reject(new ArchiveProblem(`it is not a usable zip archive: ${error.message}`))),
    );
    zip.readEntry();
  });
}

function entryBytes(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error)
        return reject(new ArchiveProblem(`entry ${JSON.stringify(entry.fileName)} cannot be read: ${error.message}`));
      collect(stream).then(resolve, (failure: Error) =>
        reject(new ArchiveProblem(`entry ${JSON.stringify(entry.fileName)} cannot be read: ${failure.message}`)),
      );
    });
  });
}

async function collect(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
