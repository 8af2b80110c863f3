import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { CliError } from "./cli-error.js";

/**
 * Checks that `directory` (absolute) can be created: its nearest existing ancestor must be a
 * writable folder. Returns the missing folders, outermost first. Writes nothing.
 */
export function foldersToCreate(directory: string): string[] {
  const missing: string[] = [];
  let current = directory;
  for (;;) {
    let stat;
    try {
      stat = statSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: an ancestor is a file, which the walk up reaches and reports.
      if (code !== "ENOENT" && code !== "ENOTDIR")
        throw cannotCreate(directory, `${current} cannot be read (${code ?? String(error)})`);
      const parent = dirname(current);
      if (parent === current) throw cannotCreate(directory, `${current} does not exist`);
      missing.unshift(current);
      current = parent;
      continue;
    }
    if (!stat.isDirectory()) throw cannotCreate(directory, `${current} is not a folder`);
    try {
      accessSync(current, constants.W_OK);
    } catch {
      throw cannotCreate(directory, `${current} is not writable`);
    }
    return missing;
  }
}

/**
 * Creates `folders` one level at a time. Not `mkdirSync(…, { recursive: true })`: on Node 20
 * that loops forever under a folder that refuses new entries with ENOENT, such as /proc.
 */
export function createFolders(folders: string[], target: string): void {
  for (const folder of folders) {
    try {
      mkdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw cannotCreate(
        target,
        code === "EEXIST" ? `${folder} already exists` : `${dirname(folder)} does not accept new folders (${code})`,
      );
    }
  }
}

function cannotCreate(target: string, reason: string): CliError {
  return new CliError("cannot-create", `Cannot create ${target}: ${reason}`);
}
