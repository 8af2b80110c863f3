import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { SkillsetError } from "../core/errors.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";

/** The start of a `SKILL.md`, enough to hold its frontmatter, plus what identifies the file's version. */
export interface SkillHead {
  text: string;
  /** `mtime:size:inode`: changes whenever the file is rewritten. */
  stamp: string;
}

const FIRST_READ = 4096;
// O_NONBLOCK: opening a FIFO named SKILL.md must not wait for a writer (decision 11).
// O_NOFOLLOW: a symlinked SKILL.md fails with ELOOP so the caller can check where it points.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Reads a `SKILL.md` up to the end of its frontmatter (or the whole file, when `whole` is set).
 * Throws {@link SkillsetError} with codes `not-found`, `symlink`, `not-a-file`, `too-large`, `not-utf8`.
 */
export function readSkillFile(file: string, whole: boolean): SkillHead & { bytes: Uint8Array } {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new SkillsetError("not-found", `${file} does not exist`);
    if (code === "ELOOP") throw new SkillsetError("symlink", `${file} is a symbolic link`);
    throw new SkillsetError("read-failed", `Cannot read ${file}: ${code ?? String(error)}`, { cause: error });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new SkillsetError("not-a-file", `${file} is not a regular file`);
    if (stat.size > MAX_SKILL_FILE_BYTES) {
      throw new SkillsetError("too-large", `${file} exceeds the maximum size (${MAX_SKILL_FILE_BYTES} bytes)`);
    }
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    const limit = Math.min(stat.size, MAX_SKILL_FILE_BYTES);
    let buffer = new Uint8Array(whole ? limit : Math.min(limit, FIRST_READ));
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      length += read;
      if (read === 0 || length >= limit) break;
      if (length < buffer.length) continue;
      if (!whole && frontmatterComplete(buffer.subarray(0, length))) break;
      const larger = new Uint8Array(Math.min(limit, buffer.length * 4));
      larger.set(buffer);
      buffer = larger;
    }
    const bytes = buffer.subarray(0, length);
    return { bytes, text: decodeUtf8(bytes, file, length < stat.size), stamp };
  } finally {
    closeSync(fd);
  }
}

// Byte-level check for a closing `---` line, so the head is decoded only once.
function frontmatterComplete(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf("\n---", 3); at !== -1; at = buffer.indexOf("\n---", at + 1)) {
    let end = at + 4;
    while (buffer[end] === 0x20 || buffer[end] === 0x09) end++;
    if (buffer[end] === 0x0a || buffer[end] === 0x0d) return true;
  }
  return false;
}

/** Strict UTF-8 decoding; a cut-off multi-byte character at the end of a partial read is fine. */
export function decodeUtf8(bytes: Uint8Array, file: string, partial = false): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes, { stream: partial });
  } catch (error) {
    throw new SkillsetError("not-utf8", `${file} is not valid UTF-8`, { cause: error });
  }
}
