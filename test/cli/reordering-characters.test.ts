// Bidi overrides in a skill's name, description or folder ("Trojan Source": U+202E shows what
// follows right to left) never reach the terminal raw: every human-readable line shows them as
// `\u202e`, and --json keeps the value, escaped the same way, so it parses back to the same text.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const run = promisify(execFile);
const RAW = /[\u202a-\u202e\u2066-\u2069\u2028\u2029\x80-\x9f]/;

let root: string;
let skills: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "skillset-reordering-"));
  skills = join(root, "skills");
  // A valid skill in a folder whose name reorders, with a description that reorders.
  mkdirSync(join(skills, "notes\u2066txt"), { recursive: true });
  writeFileSync(
    join(skills, "notes\u2066txt", "SKILL.md"),
    '---\nname: notes\ndescription: "Takes notes. Use when asked for exe.\\u202Etxt notes."\n---\n\nBody\n',
  );
  // A name that reorders, which validate refuses.
  mkdirSync(join(skills, "evil"));
  writeFileSync(
    join(skills, "evil", "SKILL.md"),
    '---\nname: "abc\\u202Edef"\ndescription: Use when asked.\n---\n\nBody\n',
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, NO_COLOR: "1", HOME: root, XDG_DATA_HOME: join(root, "data") };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: root, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("reordering characters from skills, in the CLI's output", () => {
  it("validate shows the name's U+202E as \\u202e", async () => {
    const result = await cli("validate", join(skills, "evil"));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Skill name 'abc\\u202edef' contains invalid characters.");
    expect(result.stdout).not.toMatch(RAW);
  });

  it("list, info, search and doctor show the folder's and description's as escapes", async () => {
    const list = await cli("list", skills);
    expect(list.stdout).toContain("Takes notes. Use when asked for exe.\\u202etxt notes.");
    expect(list.stdout).toContain("notes\\u2066txt");
    for (const result of [
      list,
      await cli("info", "notes", skills),
      await cli("search", "notes", skills),
      await cli("doctor", skills, "--no-threads"),
    ]) {
      expect(result.stdout + result.stderr).toContain("\\u202e");
      expect(result.stdout + result.stderr).not.toMatch(RAW);
    }
  });

  it("an error naming what the user typed escapes it too", async () => {
    const result = await cli("info", "abc\u202edef", skills);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^skillset: Skill 'abc\\u202edef' not found\. Available skills: notes\n$/);
    expect(result.stderr).not.toMatch(RAW);
  });

  it("--json escapes them inside its strings, so the values parse back unchanged", async () => {
    const result = await cli("list", skills, "--json");
    expect(result.stdout).not.toMatch(RAW);
    const listed = JSON.parse(result.stdout) as { skills: Array<{ name: string; description: string; path: string }> };
    const notes = listed.skills.find((skill) => skill.name === "notes")!;
    expect(notes.description).toBe("Takes notes. Use when asked for exe.\u202etxt notes.");
    expect(notes.path).toBe(join(skills, "notes\u2066txt", "SKILL.md"));
  });
});
