import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { SkillsetError } from "../errors/skillset-error.js";

// O_NONBLOCK: opening a FIFO must not wait for a writer (skill folders are untrusted).
// O_NOFOLLOW: a symlinked file fails with ELOOP so the caller can check where it points.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Reads a whole regular file of at most `maxBytes`, opened without following a symlink (the
 * file itself; folders above it are followed) and without waiting on a FIFO. Throws
 * {@link SkillsetError} with codes `not-found`, `symlink`, `not-a-file`, `too-large`,
 * `cannot-read`.
 */
export function readBoundedFile(file: string, maxBytes: number): Uint8Array {
  const fd = openIfExists(file);
  if (fd === undefined) throw new SkillsetError("not-found", `${file} does not exist`);
  try {
    const stat = regularFileStat(fd, file, maxBytes);
    const bytes = new Uint8Array(stat.size);
    return bytes.subarray(0, readToEnd(fd, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens `file` for reading as {@link readBoundedFile} does; undefined when it does not exist.
 * Throws `symlink` for a symlink and `cannot-read` for anything else that stops it.
 */
export function openIfExists(file: string): number | undefined {
  // Walking folders that hold no skill tries many files that do not exist; the error Node throws
  // for them costs several times less without a stack trace, and nobody reads that one.
  const stackTraceLimit = Error.stackTraceLimit;
  let failure: NodeJS.ErrnoException;
  Error.stackTraceLimit = 0;
  try {
    return openSync(file, OPEN_FLAGS);
  } catch (error) {
    failure = error as NodeJS.ErrnoException;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  if (failure.code === "ENOENT" || failure.code === "ENOTDIR") return undefined;
  if (failure.code === "ELOOP") throw new SkillsetError("symlink", `${file} is a symbolic link`);
  throw new SkillsetError("cannot-read", `Cannot read ${file}: ${failure.code ?? String(failure)}`, { cause: failure });
}

/** The stat of the open `fd`; `not-a-file` unless it is a regular file, `too-large` past `maxBytes`. */
export function regularFileStat(fd: number, file: string, maxBytes: number): Stats {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new SkillsetError("not-a-file", `${file} is not a regular file`);
  if (stat.size > maxBytes) {
    throw new SkillsetError("too-large", `${file} exceeds the maximum size (${maxBytes} bytes)`);
  }
  return stat;
}

/** Reads from offset `from` until the end of the file or of `buffer`; returns the length read. */
export function readToEnd(fd: number, buffer: Uint8Array, from: number): number {
  let length = from;
  while (length < buffer.length) {
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  return length;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding of a whole file's bytes; invalid input is a `not-utf8` error naming `file`. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return utf8.decode(bytes);
  } catch (error) {
    throw new SkillsetError("not-utf8", `${file} is not valid UTF-8`, { cause: error });
  }
}
