import { ArchiveProblem, type ArchiveFiles } from "./archive-limits.js";
import { readTarGzFiles } from "./tar-gz-files.js";
import { readZipFiles } from "./zip-files.js";

/**
 * The files of a verified archive, told apart by content rather than name or `Content-Type`
 * (a zip starts `PK`, a gzip `1f 8b`); it must hold `SKILL.md` at its root.
 */
export async function readArchiveFiles(bytes: Uint8Array): Promise<ArchiveFiles> {
  let files: ArchiveFiles;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) files = await readZipFiles(bytes);
  else if (bytes[0] === 0x1f && bytes[1] === 0x8b) files = await readTarGzFiles(bytes);
  else throw new ArchiveProblem("it is neither a .zip nor a .tar.gz archive");
  if (!files.has("SKILL.md")) throw new ArchiveProblem("it has no SKILL.md at its root");
  return files;
}
