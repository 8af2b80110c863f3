// A reader that stops reading (`| head`): the commands exit quietly, with their verdict.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseEnv, CLI, ROOT } from "../helpers/run-cli.js";
import { fields, useCliRun, writeSkill } from "./helpers.js";

const execFileAsync = promisify(execFile);
const { tempDir } = useCliRun();

/** Runs the CLI with its stdout pipe closed before it writes anything, as `| head -0` would. */
function runWithStdoutClosed(
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: tempDir(),
      env: baseEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe("a reader that stops reading", () => {
  const examples = path.join(ROOT, "examples", "skills");

  it.each([
    ["list", ["list", examples]],
    ["list --json", ["list", "--json", examples]],
    ["prompt", ["prompt", examples]],
    ["info", ["info", "csv-insights", examples]],
  ])("`skillset %s` with stdout closed exits 0 quietly, no EPIPE stack trace", async (_name, args) => {
    const result = await runWithStdoutClosed(args);

    expect(result).toEqual({ code: 0, signal: null, stderr: "" });
  });

  it("validate keeps its verdict: exit 1 when a skill is invalid, quietly, though the report went nowhere", async () => {
    const dir = tempDir();
    writeSkill(dir, "good", fields("good", "Fine."));
    writeSkill(dir, "Bad", fields("Bad", "Uppercase."));

    const result = await runWithStdoutClosed(["validate", "-r", dir]);

    expect(result).toEqual({ code: 1, signal: null, stderr: "" });
  });

  it("`skillset list … | head -1` under `set -o pipefail` prints the header and succeeds", async () => {
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    const { stdout, stderr } = await execFileAsync(
      "bash",
      ["-c", `set -o pipefail; ${quote(process.execPath)} ${quote(CLI)} list ${quote(examples)} | head -1`],
      {
        env: baseEnv(),
        encoding: "utf8",
      },
    );

    expect(stdout).toMatch(/^NAME +STATUS +PATH +DESCRIPTION\n$/);
    expect(stderr).toBe("");
  });
});
