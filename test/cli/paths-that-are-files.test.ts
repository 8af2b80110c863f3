// A file given where a folder is expected: validate and list name it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fields, parseJson, useCliRun, writeSkill, type ListJson, type ValidateJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("paths that are files, not folders", () => {
  it("validate --recursive on a file reports it as not a directory, as without --recursive", async () => {
    const file = path.join(tempDir(), "notes.txt");
    writeFileSync(file, "x");
    const result = await run(["validate", "--recursive", "--json", file]);
    expect(result.code).toBe(1);
    expect(parseJson<{ skills: Array<{ errors: string[] }> }>(result.stdout).skills[0]!.errors).toEqual([
      `Not a directory: ${file}`,
    ]);
  });

  it("list on a file fails with a one-line error naming it", async () => {
    const file = path.join(tempDir(), "notes.txt");
    writeFileSync(file, "x");
    const result = await run(["list", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`skillset: Not a folder: ${file}\n`);
  });

  it("a skill's SKILL.md stands for its folder in every command that reads sources, as in validate", async () => {
    const dir = tempDir();
    writeSkill(dir, "tool", fields("tool", "A tool skill."));
    writeSkill(dir, "other", fields("other", "Another skill."));
    const file = path.join(dir, "tool", "SKILL.md");

    const [listed, prompted, validated] = await Promise.all([
      run(["list", "--json", file]),
      run(["prompt", file, path.join(dir, "tool")]),
      run(["validate", "--json", file]),
    ]);

    expect(listed.code).toBe(0);
    expect(parseJson<ListJson>(listed.stdout).skills.map((skill) => [skill.name, skill.path])).toEqual([
      ["tool", file],
    ]);
    // Named twice, as its file and its folder: read once.
    expect(prompted).toMatchObject({ code: 0, stderr: "" });
    expect(prompted.stdout.match(/^- tool: /gm)).toHaveLength(1);
    expect(prompted.stdout).not.toContain("other");
    expect(parseJson<ValidateJson>(validated.stdout).skills.map((skill) => skill.name)).toEqual(["tool"]);
  });
});
