// What the tests of the CLI's commands share: `run` from a new temporary working folder, skills
// written from their frontmatter lines, and the shapes of the JSON the commands print.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCli, type CliResult } from "../helpers/run-cli.js";
import { useTempFolders } from "../helpers/skill-tree.js";
import { skillFile } from "../langchain/helpers.js";

export interface RunOptions {
  /** Working folder of the process; a fresh empty temp folder when not given. */
  cwd?: string;
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

/**
 * Registers the calling test file's cleanup of temporary folders (after each test); returns
 * `tempDir`, a new one of them, and `run`, which runs the built CLI in a new one unless given `cwd`.
 */
export function useCliRun(prefix = "skillset-cli-"): {
  tempDir(): string;
  run(args: string[], options?: RunOptions): Promise<CliResult>;
} {
  const tempDir = useTempFolders(prefix);
  return {
    tempDir,
    run: (args, options = {}) => runCli(args, { cwd: options.cwd ?? tempDir(), env: options.env ?? {} }),
  };
}

/** Writes `<dir>/<name>/SKILL.md` with the given frontmatter lines; returns the skill folder. */
export function writeSkill(
  dir: string,
  name: string,
  frontmatterLines: string[],
  body = `# ${name}\n\nDo the thing.\n`,
): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "SKILL.md"), ["---", ...frontmatterLines, "---", "", body].join("\n"));
  return folder;
}

/** The two required frontmatter lines. */
export function fields(name: string, description: string): string[] {
  return [`name: ${name}`, `description: ${description}`];
}

/** Writes `<folderPath>/SKILL.md` of a valid skill, named after the folder unless `name` is given; returns the file. */
export function skillAt(folderPath: string, name = path.basename(folderPath), description = `Use ${name}.`): string {
  mkdirSync(folderPath, { recursive: true });
  const file = path.join(folderPath, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
  return file;
}

/** In `source`, the skill `tool` with one resource of each type: a script, a reference, an asset and another file. */
export function writeToolSkill(source: string): { source: string; skill: string } {
  const skill = writeSkill(source, "tool", [...fields("tool", "A tool skill."), "license: MIT"]);
  for (const [relative, content] of [
    ["scripts/run.sh", "echo hi\n"],
    ["references/guide.md", "# Guide\n"],
    ["assets/logo.txt", "logo\n"],
    ["notes.md", "notes\n"],
  ] as const) {
    mkdirSync(path.dirname(path.join(skill, relative)), { recursive: true });
    writeFileSync(path.join(skill, relative), content);
  }
  return { source, skill };
}

/**
 * 120 skills of about 40 tokens a line (over a 500-token catalog budget, not over the default)
 * and `pdf-forms`, as the files of a skills folder for `skillTree`.
 */
export function largeLibrary(): Record<string, string> {
  const topics = ["invoices", "spreadsheets", "kubernetes", "changelogs", "photographs", "contracts"];
  const files: Record<string, string> = {};
  for (let index = 0; index < 120; index++) {
    const topic = topics[index % topics.length]!;
    files[`task-${String(index).padStart(3, "0")}/SKILL.md`] = skillFile(
      `task-${String(index).padStart(3, "0")}`,
      `Checks ${topic} for the team, step ${index}: validates fields, fixes formats and writes a short report of what changed.`,
    );
  }
  files["pdf-forms/SKILL.md"] = skillFile("pdf-forms", "Fill in PDF forms and flatten them for signing.");
  return files;
}

export function parseJson<T>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

export interface ValidateJson {
  skills: Array<{ path: string; name: string | null; valid: boolean; errors: string[]; warnings: string[] }>;
  valid: boolean;
}

export interface DiagnosticJson {
  severity: string;
  code: string;
  file: string;
  message: string;
  skill?: string;
  source?: string;
}

export interface ListJson {
  skills: Array<{
    name: string | null;
    description: string | null;
    path: string;
    source: string;
    status: string;
    diagnostics: DiagnosticJson[];
  }>;
  diagnostics: DiagnosticJson[];
}

export interface InfoJson {
  skill: { name: string; description: string; path: string; source: string; license?: string };
  directory: string;
  resources: Array<{ path: string; relativePath: string; type: string; size?: number }>;
  resourcesTruncated: boolean;
  shadowed: string[];
  diagnostics: DiagnosticJson[];
}

export interface ErrorJson {
  error: { code: string; message: string };
}

export const sorted = (values: Iterable<string>) => [...values].sort();
