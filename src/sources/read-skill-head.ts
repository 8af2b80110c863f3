import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { SkillsetError } from "../core/errors.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";

const FIRST_READ = 4096;
// O_NONBLOCK: opening a FIFO named SKILL.md must not wait for a writer (decision 11).
// O_NOFOLLOW: a symlinked SKILL.md fails with ELOOP so the caller can check where it points.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Reads a `SKILL.md` up to the end of its frontmatter. The file is `fstat`ed only when needed:
 * for a `stamp`, or when the first read does not hold a complete frontmatter (which is also how
 * FIFOs, devices and huge files are recognised). Throws {@link SkillsetError} with codes
 * `not-found`, `symlink`, `not-a-file`, `too-large`, `not-utf8`.
 */
export function readSkillHead(file: string, withStamp: boolean): { text: string; stamp?: string } {
  const fd = openSkillFile(file);
  try {
    let length = 0;
    try {
      length = readSync(fd, scratch, 0, FIRST_READ, 0);
    } catch {
      // EAGAIN from a FIFO without data: the fstat below names the problem.
    }
    const end = frontmatterEnd(scratch.subarray(0, length));
    if (end !== -1 && !withStamp) return { text: decodeUtf8(scratch.subarray(0, end), file) };
    const stat = checkedStat(fd, file);
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    if (end !== -1) return { text: decodeUtf8(scratch.subarray(0, end), file), stamp };
    if (length < FIRST_READ || stat.size <= FIRST_READ) return { text: decodeUtf8(scratch.subarray(0, length), file), stamp };
    // A frontmatter longer than the first read: read on, growing the buffer, until it ends.
    let buffer = scratch;
    for (;;) {
      const larger = new Uint8Array(Math.min(stat.size, buffer.length * 4));
      larger.set(buffer.subarray(0, length));
      buffer = larger;
      while (length < buffer.length) {
        const read = readSync(fd, buffer, length, buffer.length - length, length);
        if (read === 0) break;
        length += read;
      }
      const bytes = buffer.subarray(0, length);
      const found = frontmatterEnd(bytes);
      if (found !== -1) return { text: decodeUtf8(bytes.subarray(0, found), file), stamp };
      if (length >= stat.size || length < buffer.length) return { text: decodeUtf8(bytes, file, true), stamp };
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole file (at most `maxBytes`, by default {@link MAX_SKILL_FILE_BYTES}); same errors as {@link readSkillHead}. */
export function readSkillFile(file: string, maxBytes = MAX_SKILL_FILE_BYTES): Uint8Array {
  const fd = openSkillFile(file);
  try {
    const stat = checkedStat(fd, file, maxBytes);
    const bytes = new Uint8Array(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const read = readSync(fd, bytes, length, bytes.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return bytes.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function openSkillFile(file: string): number {
  try {
    return openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new SkillsetError("not-found", `${file} does not exist`);
    if (code === "ELOOP") throw new SkillsetError("symlink", `${file} is a symbolic link`);
    throw new SkillsetError("read-failed", `Cannot read ${file}: ${code ?? String(error)}`, { cause: error });
  }
}

function checkedStat(fd: number, file: string, maxBytes = MAX_SKILL_FILE_BYTES) {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new SkillsetError("not-a-file", `${file} is not a regular file`);
  if (stat.size > maxBytes) {
    throw new SkillsetError("too-large", `${file} exceeds the maximum size (${maxBytes} bytes)`);
  }
  return stat;
}

// Heads are read into one shared buffer: reads are synchronous, so it is never used twice at once.
const scratch = new Uint8Array(FIRST_READ);

// Offset just past the line break of the first closing `---` line, or -1. Works on bytes so
// that only the frontmatter is ever decoded.
function frontmatterEnd(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf("\n---", 3); at !== -1; at = buffer.indexOf("\n---", at + 1)) {
    let end = at + 4;
    while (buffer[end] === 0x20 || buffer[end] === 0x09) end++;
    if (buffer[end] === 0x0d) end++;
    if (buffer[end] === 0x0a) return end + 1;
  }
  return -1;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding; when `partial`, a multi-byte character cut off at the end is dropped. */
export function decodeUtf8(bytes: Uint8Array, file: string, partial = false): string {
  try {
    return utf8.decode(partial ? bytes.subarray(0, completeLength(bytes)) : bytes);
  } catch (error) {
    throw new SkillsetError("not-utf8", `${file} is not valid UTF-8`, { cause: error });
  }
}

// Length of `bytes` without a trailing, incomplete UTF-8 sequence.
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) !== 0x80) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return needed > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}
