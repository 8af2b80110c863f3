// A skill deeper than the scan goes: list says the scan was cut, and so does every other command
// that scans, on stderr.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { useTempFolders } from "../helpers/skill-tree.js";
import { skillAt as skill } from "./helpers.js";

// Real paths: the CLI reports them so, and the temp folder may be behind a link (macOS's /var).
const tempFolder = useTempFolders("skillset-depth-");
const folder = () => realpathSync(tempFolder());
const cli = (args: string[], { cwd, home }: { cwd: string; home: string }) =>
  runCli(args, { cwd, env: { HOME: home } });

describe("a skill below the depth limit", () => {
  // deep6/1/2/3/4/5/6/7/SKILL.md: 7 folders below the source, one deeper than the default maxDepth.
  function deep() {
    const home = folder();
    const cwd = folder();
    skill(join(cwd, "deep6/1/2/3/4/5/6/7"), "seven");
    const warning = `Stopped scanning ${join(cwd, "deep6")} at depth 6: the folders below ${join(cwd, "deep6/1/2/3/4/5/6")} were not searched; skills there may be missing`;
    return { home, cwd, warning };
  }

  it("list -r says the scan was cut, in JSON and text", async () => {
    const { home, cwd, warning } = deep();
    const listed = await cli(["list", "-r", "deep6", "--json"], { cwd, home });
    expect(JSON.parse(listed.stdout)).toEqual({
      skills: [],
      diagnostics: [
        {
          severity: "warning",
          code: "depth-limit",
          file: join(cwd, "deep6"),
          message: warning,
          source: `local:${join(cwd, "deep6")}`,
        },
      ],
    });
    expect(listed.stderr).toBe("");
    expect((await cli(["list", "-r", "deep6"], { cwd, home })).stdout).toContain(
      `\n  ${join(cwd, "deep6")}: warning: ${warning}\n`,
    );
  });

  it("every other command that scans says so on stderr", async () => {
    const { home, cwd, warning } = deep();
    const line = `skillset: ${join(cwd, "deep6")}: warning: ${warning}\n`;
    for (const args of [["info", "seven"], ["prompt"], ["search", "seven"], ["render", "seven"]]) {
      const result = await cli([...args, "-r", "deep6"], { cwd, home });
      expect(result.stderr.startsWith(line), `${args[0]}: ${result.stderr}`).toBe(true);
    }
  });
});
