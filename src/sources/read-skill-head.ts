import { Buffer, isUtf8 } from "node:buffer";
import { closeSync, readSync } from "node:fs";
import { SkillsetError } from "../errors/skillset-error.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";
import { openIfExists, readToEnd, regularFileStat } from "../fs/bounded-read.js";

/**
 * Reads a `SKILL.md` for discovery and returns its frontmatter text (up to the closing `---`
 * line; the whole file when there is none), with its stamp (`mtime:size:inode`) when
 * `withStamp`, or undefined when the file does not exist. The whole file is read and must be
 * valid UTF-8, so that a skill the catalog lists can also be loaded, but only the frontmatter is
 * decoded. Throws {@link SkillsetError} with codes `symlink`, `not-a-file`, `too-large`,
 * `not-utf8`, `cannot-read`.
 */
export function readSkillHead(file: string, withStamp: boolean): { text: string; stamp?: string } | undefined {
  const fd = openIfExists(file);
  if (fd === undefined) return undefined;
  try {
    let length = -1;
    try {
      // One read: for a regular file, fewer bytes than asked means the end of the file.
      length = readSync(fd, scratch, 0, scratch.length, 0);
    } catch {
      // EAGAIN from a FIFO with a writer: the fstat below names the problem.
    }
    let size = Math.max(length, 0);
    let bytes = smallestView(scratchViews, size);
    let end = frontmatterEnd(bytes);
    let stamp: string | undefined;
    // An fstat costs more than the read, so the usual case (a file shorter than the buffer whose
    // frontmatter closes) skips it; a full buffer, no data or no closing line is how large files,
    // FIFOs and devices are recognised. (A FIFO whose writer supplies a whole frontmatter slips
    // through here, without blocking; reading the skill then refuses it.)
    if (withStamp || length < 0 || length === scratch.length || end === -1) {
      const stat = regularFileStat(fd, file, MAX_SKILL_FILE_BYTES);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (length < 0) throw new SkillsetError("cannot-read", `Cannot read ${file}`);
      if (length === scratch.length) {
        const whole = Buffer.allocUnsafe(Math.max(stat.size, scratch.length));
        whole.set(scratch);
        size = readToEnd(fd, whole, scratch.length);
        bytes = whole.subarray(0, size);
        end = frontmatterEnd(bytes);
      }
    }
    if (!isUtf8(bytes)) throw new SkillsetError("not-utf8", `${file} is not valid UTF-8`);
    // Valid UTF-8 by now, so the faster non-fatal decoding is exact (and keeps a BOM, as it must).
    const text = bytes.toString("utf8", 0, end === -1 ? size : end);
    return stamp === undefined ? { text } : { text, stamp };
  } finally {
    closeSync(fd);
  }
}

// Skill files are read into one shared buffer (reads are synchronous, so it is never used twice
// at once); it holds nearly every real SKILL.md, larger ones get their own.
const scratch = Buffer.allocUnsafeSlow(64 * 1024);

// Views of `scratch` from 1 KB to all of it, made once: a view per file was a tenth of what a
// scan allocated, so each file is checked in the smallest view that holds it instead, with the
// bytes past its end zeroed. A NUL byte keeps valid UTF-8 valid and leaves an incomplete sequence
// at the end incomplete, and forms no closing line, so the view answers as the file's bytes would.
const scratchViews = viewsOf(scratch, 0, scratch.length);

// Views of `buffer` from `from` on, 1 KB long and doubling up to `bytes`.
function viewsOf(buffer: Buffer, from: number, bytes: number): Buffer[] {
  const views: Buffer[] = [];
  for (let length = 1024; length <= bytes; length *= 2) views.push(buffer.subarray(from, from + length));
  return views;
}

// The smallest of `views` holding `size` bytes, zeroed past them.
function smallestView(views: readonly Buffer[], size: number): Buffer {
  let at = 0;
  while (views[at]!.length < size) at++;
  const view = views[at]!;
  view.fill(0, size);
  return view;
}

// A cold scan reads the skill files of a run of folders one after another, then inspects them:
// the system calls in a row, then the parsing, made cold discovery 16% faster at 10,000 skills
// and 8% at 100,000 than the two interleaved (each keeps its code and data in the processor's
// caches; the opens and closes took a third longer than the floor's). One run is held at a
// time, for whichever scan read it last: a scan whose run another replaced reads again.
const RUN_FOLDERS = 16;
// Nearly every SKILL.md fits; a larger one is read again, whole, by readSkillHead.
const SLOT_BYTES = 16 * 1024;
const runBuffer = Buffer.allocUnsafeSlow(RUN_FOLDERS * SLOT_BYTES);
const runViews = Array.from({ length: RUN_FOLDERS }, (_, slot) => viewsOf(runBuffer, slot * SLOT_BYTES, SLOT_BYTES));
// Per slot: the bytes read, or one of these.
const ABSENT = -1;
const UNREADABLE = -2;
const runLengths = new Int32Array(RUN_FOLDERS);
// Per slot: the path its file was opened by, which the skill keeps.
const runFiles = new Array<string>(RUN_FOLDERS).fill("");
let runFolders: readonly string[] | undefined;
let runFrom = 0;
let runTo = 0;
// The folder of the run that skillHeadReadAhead may answer for, or -1.
let offered = -1;

/**
 * Says that `folders[at]` is the next folder whose `SKILL.md` a cold scan reads, the others
 * following in order: unless it is in the run already read, reads the `SKILL.md` of up to 16
 * folders from it on (for {@link skillHeadReadAhead}).
 */
export function readSkillHeadsAhead(folders: readonly string[], at: number): void {
  offered = at;
  if (folders === runFolders && at >= runFrom && at < runTo) return;
  runFolders = folders;
  runFrom = at;
  runTo = Math.min(folders.length, at + RUN_FOLDERS);
  for (let slot = 0; slot !== runTo - runFrom; slot++) {
    const file = `${folders[at + slot]}/SKILL.md`;
    runFiles[slot] = file;
    runLengths[slot] = readSlot(file, slot);
  }
}

function readSlot(file: string, slot: number): number {
  let fd: number | undefined;
  try {
    fd = openIfExists(file);
  } catch {
    return UNREADABLE;
  }
  if (fd === undefined) return ABSENT;
  try {
    return readSync(fd, runBuffer, slot * SLOT_BYTES, SLOT_BYTES, 0);
  } catch {
    return UNREADABLE;
  } finally {
    closeSync(fd);
  }
}

/**
 * The head of `directory`'s `SKILL.md` as `readSkillHead` gives it without a stamp, and the
 * file's path as it was opened (`<directory>/SKILL.md`, made flat by the open), when `directory`
 * is the folder last offered to {@link readSkillHeadsAhead} and its file was read ahead;
 * `"absent"` when it has none. Undefined when not read ahead, and when the file needs
 * `readSkillHead`'s own checks: a link, larger than a slot, with no closing line, not UTF-8, no
 * regular file. Answers once per offer.
 */
export function skillHeadReadAhead(directory: string): { text: string; file: string } | "absent" | undefined {
  const at = offered;
  offered = -1;
  const folders = runFolders;
  if (folders === undefined || at < runFrom || at >= runTo || folders[at] !== directory) return undefined;
  // Past the list's last folder nothing will be asked of it: let it go (a library's paths).
  if (at === folders.length - 1) runFolders = undefined;
  const slot = at - runFrom;
  const length = runLengths[slot]!;
  if (length === ABSENT) return "absent";
  if (length < 0 || length === SLOT_BYTES) return undefined;
  const bytes = smallestView(runViews[slot]!, length);
  const end = frontmatterEnd(bytes);
  if (end === -1 || !isUtf8(bytes)) return undefined;
  return { text: bytes.toString("utf8", 0, end), file: runFiles[slot]! };
}

// Offset just past the line break of the first closing `---` line, or -1. Works on bytes so
// that only the frontmatter is ever decoded.
function frontmatterEnd(buffer: Buffer): number {
  for (let at = buffer.indexOf(CLOSING_DASHES, 3); at !== -1; at = buffer.indexOf(CLOSING_DASHES, at + 1)) {
    const end = closingLineEnd(buffer, at);
    if (end !== -1) return end;
  }
  return -1;
}

const CLOSING_DASHES = Buffer.from("\n---");

// Given `\n---` at `at`: the offset past the line break when only spaces and tabs follow the dashes, else -1.
function closingLineEnd(buffer: Buffer, at: number): number {
  let end = at + 4;
  while (buffer[end] === 0x20 || buffer[end] === 0x09) end++;
  if (buffer[end] === 0x0d) end++;
  return buffer[end] === 0x0a ? end + 1 : -1;
}
