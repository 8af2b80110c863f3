// `skillset info`: one skill's metadata, path and resources, in text and JSON.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fields, parseJson, useCliRun, writeSkill, writeToolSkill, type InfoJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

/** A source folder with one skill, `tool`, that has one resource of each type. */
const infoFixture = () => writeToolSkill(tempDir());

describe("skillset info", () => {
  it("prints the skill's path and its resources grouped by type", async () => {
    const { source, skill } = infoFixture();

    const result = await run(["info", "tool", source]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "tool",
        "",
        "A tool skill.",
        "",
        `Path:             ${path.join(skill, "SKILL.md")}`,
        `Source:           local:${source}`,
        "License:          MIT",
        "",
        "Resources",
        "  Scripts (1)",
        "    scripts/run.sh 8 B",
        "  References (1)",
        "    references/guide.md 8 B",
        "  Assets (1)",
        "    assets/logo.txt 5 B",
        "  Other files (1)",
        "    notes.md 6 B",
        "",
      ].join("\n"),
    );
  });

  it("--json gives resources typed script/reference/asset/other with their relativePath", async () => {
    const { source, skill } = infoFixture();

    const result = await run(["info", "tool", source, "--json"]);

    expect(result.code).toBe(0);
    const info = parseJson<InfoJson>(result.stdout);
    expect(Object.keys(info).sort()).toEqual([
      "diagnostics",
      "directory",
      "resources",
      "resourcesTruncated",
      "shadowed",
      "skill",
    ]);
    expect(info.skill).toMatchObject({
      name: "tool",
      description: "A tool skill.",
      path: path.join(skill, "SKILL.md"),
      source: `local:${source}`,
      license: "MIT",
    });
    expect(info.directory).toBe(skill);
    expect([...info.resources].sort((a, b) => a.relativePath.localeCompare(b.relativePath))).toEqual([
      { path: path.join(skill, "assets", "logo.txt"), relativePath: "assets/logo.txt", type: "asset", size: 5 },
      { path: path.join(skill, "notes.md"), relativePath: "notes.md", type: "other", size: 6 },
      {
        path: path.join(skill, "references", "guide.md"),
        relativePath: "references/guide.md",
        type: "reference",
        size: 8,
      },
      { path: path.join(skill, "scripts", "run.sh"), relativePath: "scripts/run.sh", type: "script", size: 8 },
    ]);
    expect(info.resourcesTruncated).toBe(false);
    expect(info.shadowed).toEqual([]);
    expect(info.diagnostics).toEqual([]);
  });

  it("an unknown name exits 1 and lists the available skills", async () => {
    const { source } = infoFixture();
    writeSkill(source, "another", fields("another", "Another skill."));

    const result = await run(["info", "nope", source]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "skillset: Skill 'nope' not found. Available skills: another, tool\n",
    });
  });

  it("an unknown name in a library of more than 50 skills names the closest three, not every skill", async () => {
    const { source } = infoFixture();
    for (let at = 0; at < 60; at++)
      writeSkill(source, `report-${at}`, fields(`report-${at}`, `Writes weekly report number ${at}.`));
    writeSkill(source, "pdf-invoices", fields("pdf-invoices", "Reads invoices from PDF files."));
    writeSkill(source, "pdf-forms", fields("pdf-forms", "Fills PDF forms."));

    const result = await run(["info", "pdf-invoice", source]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "skillset: Skill 'pdf-invoice' not found. Closest: pdf-invoices, pdf-forms. 63 skills in all: `skillset search` finds one by what it does, `skillset list` names them all\n",
    });
  });
});
