// Broken YAML in a SKILL.md: validate, list and info name its line and column.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, useCliRun, writeSkill, type ListJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("YAML errors name their line and column in the SKILL.md", () => {
  it("in validate's report, and in list's and info's diagnostics", async () => {
    const dir = tempDir();
    const repaired = writeSkill(dir, "unclosed", ["name: unclosed", "description: [unclosed"]);
    const skipped = writeSkill(dir, "quoted", ["name: quoted", 'description: "unclosed', "license: MIT"]);
    const flow =
      "Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 14";
    const quote = 'Missing closing "quote at line 3, column 14';

    const [validated, listed, info] = await Promise.all([
      run(["validate", "-r", dir]),
      run(["list", "--json", dir]),
      run(["info", "unclosed", dir]),
    ]);

    expect(validated).toEqual({
      code: 1,
      stdout: `✗ ${skipped}\n  error: Invalid YAML in frontmatter: ${quote}\n✗ ${repaired}\n  error: Invalid YAML in frontmatter: ${flow}\n2 skills checked: 0 valid, 2 invalid\n`,
      stderr: "",
    });
    expect(
      parseJson<ListJson>(listed.stdout).skills.map((row) => [
        row.status,
        row.diagnostics.map((diagnostic) => diagnostic.message),
      ]),
    ).toEqual([
      ["skipped", [`Invalid YAML in frontmatter: ${quote}`]],
      ["warning", [`Invalid YAML in frontmatter: ${flow}; read after quoting the values that are not valid YAML`]],
    ]);
    expect(info.stdout).toContain(
      `\nDiagnostics\n  ${path.join(repaired, "SKILL.md")}: warning: Invalid YAML in frontmatter: ${flow}; read after quoting the values that are not valid YAML\n`,
    );
  });
});
