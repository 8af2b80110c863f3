import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** A temporary folder for one test, removed by `cleanup()`. */
export function tempTree(prefix = "skillset-"): {
  root: string;
  write(path: string, content: string): string;
  skill(path: string, name?: string, description?: string, extra?: string): string;
  cleanup(): void;
} {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const write = (path: string, content: string) => {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  return {
    root,
    write,
    skill(path, name = path.split("/").pop()!, description = `Use ${name} for tests.`, extra = "") {
      return write(
        join(path, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nInstructions.\n`,
      );
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Temporary folders removed by `cleanup()` (call it in `afterEach`). */
export function tempFolders() {
  const made: string[] = [];
  return {
    make(prefix = "skillset-"): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Registers an `afterEach` that removes them; returns a maker of new temporary folders named `prefix…`. */
export function useTempFolders(prefix: string): () => string {
  const folders = tempFolders();
  afterEach(() => folders.cleanup());
  return () => folders.make(prefix);
}
