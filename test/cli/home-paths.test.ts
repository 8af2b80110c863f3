// The built CLI with HOME pointing at a temporary folder: `~` in arguments no shell expanded,
// and default locations that are partly missing (which must not warn).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { useTempFolders } from "../helpers/skill-tree.js";
import { skillAt } from "./helpers.js";

const folder = useTempFolders("skillset-home-");
const cli = (args: string[], home: string, cwd: string) => runCli(args, { cwd, env: { HOME: home } });
const skill = (parent: string, name: string) => skillAt(join(parent, name));

describe("skillset with ~ in its arguments (HOME is a temp folder)", () => {
  it("list, validate and create read ~/ from HOME, not ./~", async () => {
    const home = folder();
    const cwd = folder();
    skill(join(home, "skills"), "mine");
    skill(join(cwd, "~", "skills"), "decoy");

    const listed = await cli(["list", "--json", "~/skills"], home, cwd);
    expect(listed.code).toBe(0);
    expect(
      (JSON.parse(listed.stdout) as { skills: Array<{ name: string; path: string }> }).skills.map((row) => [
        row.name,
        row.path,
      ]),
    ).toEqual([["mine", join(home, "skills", "mine", "SKILL.md")]]);

    const validated = await cli(["validate", "--json", "--recursive", "~/skills"], home, cwd);
    expect(validated.code).toBe(0);
    expect(
      (JSON.parse(validated.stdout) as { skills: Array<{ path: string }> }).skills.map((report) => report.path),
    ).toEqual([join(home, "skills", "mine")]);

    const created = await cli(["create", "fresh", "--dir=~/made"], home, cwd);
    expect(created.code).toBe(0);
    expect(existsSync(join(home, "made", "fresh", "SKILL.md"))).toBe(true);
    expect(existsSync(join(cwd, "~", "made"))).toBe(false);
  });

  it("refuses ~user as a usage error naming it, without reading ./~user", async () => {
    const home = folder();
    const cwd = folder();
    skill(join(cwd, "~other", "skills"), "decoy");
    const result = await cli(["list", "~other/skills"], home, cwd);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillset: Cannot use ~other/skills: only ~ and ~/ (your home folder) are expanded; write the folder's full path\n",
    });
  });
});

describe("skillset without sources", () => {
  it("uses the default folders that exist and says nothing about the missing ones", async () => {
    const home = folder();
    const cwd = folder();
    skill(join(home, ".agents", "skills"), "only-user-agents");
    const result = await cli(["list", "--json"], home, cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const listing = JSON.parse(result.stdout) as { skills: Array<{ name: string }>; diagnostics: unknown[] };
    expect(listing.skills.map((row) => row.name)).toEqual(["only-user-agents"]);
    expect(listing.diagnostics).toEqual([]);
  });
});
