// `skillset doctor` on sources that hold no skill: an error of its own, whatever --fail-on says,
// so a CI job pointed at the wrong folder fails instead of passing with "No findings".
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fields, parseJson, useCliRun, writeSkill } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("skillset doctor on sources with no skills", () => {
  it("says so on stderr and exits 1 with --fail-on none, printing no report", async () => {
    const folder = tempDir();
    mkdirSync(path.join(folder, "not-a-skill"));
    const result = await run(["doctor", folder, "--no-threads", "--fail-on", "none"]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `skillset: No skills found in ${folder}: nothing to check. ` +
        "Give the folder that holds the skills (each skill a folder with a SKILL.md), or --recursive to look deeper.\n",
    });
  });

  it("--json prints the error no-skills, and --html still writes the page", async () => {
    const folder = tempDir();
    const page = path.join(tempDir(), "doctor.html");
    const result = await run(["doctor", folder, "--no-threads", "--json", "--html", page]);
    expect(result.code).toBe(1);
    expect(parseJson<{ error: { code: string; message: string } }>(result.stdout)).toEqual({
      error: {
        code: "no-skills",
        message:
          `No skills found in ${folder}: nothing to check. ` +
          "Give the folder that holds the skills (each skill a folder with a SKILL.md), or --recursive to look deeper.",
      },
    });
    expect(existsSync(page)).toBe(true);
  });

  it("names every source, and passes once one of them holds a skill", async () => {
    const first = tempDir();
    const second = tempDir();
    expect((await run(["doctor", first, second, "--no-threads"])).stderr).toContain(
      `No skills found in ${first}, ${second}: nothing to check.`,
    );
    writeSkill(second, "alpha", fields("alpha", "Use when checking that doctor finds a skill."));
    const found = await run(["doctor", first, second, "--no-threads", "--fail-on", "none"]);
    expect(found.code).toBe(0);
    expect(found.stderr).toBe("");
  });
});
