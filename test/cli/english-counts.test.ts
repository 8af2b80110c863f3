// Counts in list, prompt and validate read as English: `1 skill`, not `1 skills`.
import { describe, expect, it } from "vitest";
import { fields, useCliRun, writeSkill } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("counts read as English", () => {
  it("one skill: `1 skill available`, `over 1 skill`, `1 skill checked`", async () => {
    const dir = tempDir();
    const skill = writeSkill(dir, "only", fields("only", "The only one."));

    const [listed, prompted, validated] = await Promise.all([
      run(["list", dir]),
      run(["prompt", "--tokens", dir]),
      run(["validate", skill]),
    ]);

    expect(listed.stdout).toContain("\n1 skill available (0 with warnings); 0 shadowed, 0 skipped\n");
    expect(prompted.stderr).toMatch(/ per skill on average over 1 skill\n$/);
    expect(validated.stdout).toContain("1 skill checked: 1 valid, 0 invalid\n");
  });
});
