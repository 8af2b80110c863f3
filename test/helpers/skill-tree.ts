import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

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
