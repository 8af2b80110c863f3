// A file given where a folder is expected: validate and list name it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, useCliRun } from "./helpers.js";

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
});
