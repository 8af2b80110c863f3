import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { extract } from "tar-stream";
import {
  ArchiveProblem,
  confinedPath,
  createTally,
  MAX_ARCHIVE_FILES,
  MAX_EXTRACTED_BYTES,
  type ArchiveFiles,
} from "./archive-limits.js";

// Room for a header and padding per file on top of the contents, so only contents count against the cap.
const MAX_TAR_BYTES = MAX_EXTRACTED_BYTES + (MAX_ARCHIVE_FILES + 16) * 1536;

/**
 * The regular files of a `.tar.gz`, read in memory (nothing is written): hard and symbolic
 * links, devices and FIFOs are refused, as are paths {@link confinedPath} refuses. Decompression
 * stops at the size cap (a gzip bomb), and each file's declared size is counted before its
 * contents are read.
 */
export async function readTarGzFiles(bytes: Uint8Array): Promise<ArchiveFiles> {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: MAX_TAR_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new ArchiveProblem(`it extracts to more than ${MAX_EXTRACTED_BYTES} bytes (25 MiB)`);
    throw new ArchiveProblem(`it is not a readable gzip file: ${(error as Error).message}`);
  }
  const files: ArchiveFiles = new Map();
  const tally = createTally(files);
  const parser = extract();
  // The first problem is kept and the rest of the (bounded, in-memory) tar is skipped through:
  // destroying tar-stream's parser mid-entry surfaces the error a second time, uncaught.
  let problem: unknown;
  const done = new Promise<void>((resolve, reject) => {
    parser.on("entry", (header, stream, next) => {
      const skip = () => stream.on("end", next).resume();
      if (problem) return skip();
      try {
        const path = confinedPath(header.name);
        const type = header.type ?? "file";
        if (type === "directory") return skip();
        if (type !== "file" && type !== "contiguous-file")
          throw new ArchiveProblem(
            `entry ${JSON.stringify(header.name)} is a ${type}; links and special files are refused`,
          );
        if (path === "") throw new ArchiveProblem(`entry ${JSON.stringify(header.name)} has no file name`);
        tally.reserve(path, header.size ?? 0);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk) => chunks.push(chunk as Buffer));
        stream.on("end", () => {
          files.set(path, new Uint8Array(Buffer.concat(chunks)));
          next();
        });
      } catch (error) {
        problem = error;
        skip();
      }
    });
    parser.on("finish", () => (problem ? reject(problem) : resolve()));
    parser.on("error", (error) => reject(new ArchiveProblem(`it is not a usable tar archive: ${error.message}`)));
  });
  Readable.from([tar]).pipe(parser);
  await done;
  return files;
}
