import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import { isInsideFolder } from "../../fs/path-inside.js";

/**
 * Private folders holding copies of an MCP server's skills, so a local executor can run their
 * scripts: one temporary folder per server (named by its label, readable by this user only),
 * one subfolder per skill (named by a hash of its URI, so same-named skills never share one).
 */
export interface SkillFolderCopies {
  /** The folder a skill's files are copied to. */
  folderOf(skillRoot: string): string;
  /** Replaces the skill's copy with `files` (paths below its folder, already verified). */
  write(skillRoot: string, files: ReadonlyArray<[string, Uint8Array]>): void;
  /** Removes every copy. */
  remove(): void;
}

/** Creates the copies' folder for the server labelled `label`. */
export function createSkillFolderCopies(label: string): SkillFolderCopies {
  const base = mkdtempSync(join(tmpdir(), `skillset-mcp-${label}-`));
  const folderOf = (skillRoot: string) => join(base, createHash("sha256").update(skillRoot).digest("hex").slice(0, 16));
  return {
    folderOf,
    write(skillRoot, files) {
      // Written afresh on every load: nothing a script changed in an earlier copy survives.
      const folder = folderOf(skillRoot);
      rmSync(folder, { recursive: true, force: true });
      for (const [path, bytes] of files) {
        const file = join(folder, path);
        // The entry's paths are checked already; this keeps a slip from ever writing outside.
        if (file === folder || !isInsideFolder(folder, file))
          throw new SkillsetError("outside-skill", `${path} leads outside the skill's folder; refused`);
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        writeFileSync(file, bytes, { mode: 0o600 });
        if (path.startsWith("scripts/")) chmodSync(file, 0o700);
      }
    },
    remove() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
