// Colour: off with NO_COLOR, on with FORCE_COLOR, and on by default only on a terminal.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseEnv, CLI } from "../helpers/run-cli.js";
import { fields, useCliRun, writeSkill } from "./helpers.js";

const execFileAsync = promisify(execFile);
const ESC = "\x1b[";
const { tempDir, run } = useCliRun();

describe("NO_COLOR", () => {
  /** Runs commands that use every colour (green ✓, red ✗/errors, yellow warnings, bold, dim). */
  async function colourfulRuns(env: Record<string, string | undefined>) {
    const dir = tempDir();
    writeSkill(dir, "good", fields("good", "Fine."));
    writeSkill(dir, "Bad", fields("Bad", "Uppercase."));
    writeSkill(dir, "warned", fields("other", "Mismatched folder."));
    return Promise.all([
      run(["validate", "-r", dir], { env }),
      run(["list", dir], { env }),
      run(["info", "good", dir], { env }),
    ]);
  }

  it("with NO_COLOR=1 and FORCE_COLOR unset, no output contains an escape code", async () => {
    const results = await colourfulRuns({ NO_COLOR: "1", FORCE_COLOR: undefined });

    expect(results.map((result) => result.code)).toEqual([1, 0, 0]);
    for (const result of results) {
      expect(result.stdout).not.toContain(ESC);
      expect(result.stderr).not.toContain(ESC);
    }
  });

  it("FORCE_COLOR=1 does colour the same output (so the check above can see escape codes)", async () => {
    const results = await colourfulRuns({ NO_COLOR: undefined, FORCE_COLOR: "1" });

    for (const result of results) expect(result.stdout).toContain(ESC);
  });

  // On a real terminal colour is on by default, so only there does NO_COLOR make a difference.
  // util-linux `script` gives the CLI a pseudo-terminal.
  it.runIf(process.platform === "linux" && existsSync("/usr/bin/script"))(
    "on a terminal, colour is on by default and NO_COLOR=1 turns it off",
    async () => {
      const skill = writeSkill(tempDir(), "good", fields("good", "Fine."));
      const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
      const command = [process.execPath, CLI, "validate", skill].map(quote).join(" ");
      const onTerminal = async (noColor: string | undefined) => {
        const { stdout } = await execFileAsync("/usr/bin/script", ["-qec", command, "/dev/null"], {
          env: baseEnv({ NO_COLOR: noColor, TERM: "xterm" }),
          encoding: "utf8",
        });
        return stdout;
      };

      const [coloured, plain] = await Promise.all([onTerminal(undefined), onTerminal("1")]);

      expect(coloured).toContain(ESC);
      expect(plain).toContain(`✓ ${skill} (good)`);
      expect(plain).not.toContain(ESC);
    },
  );
});
