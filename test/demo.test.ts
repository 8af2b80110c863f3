// The agent demo (examples/agent-demo.mjs, over the BUILT package: `npm run build` first) as a
// real process: its final answer comes only from what the csv-insights script printed, and when
// the script cannot run it says so and exits with code 1.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { usePython3 } from "./helpers/test-environment.js";

const DEMO = fileURLToPath(new URL("../examples/agent-demo.mjs", import.meta.url));
const INCOMPLETE = "The demo is incomplete: the csv-insights script did not run successfully";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder for PATH holding only the given executables (name → shell script body). */
function pathWith(executables: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "skillset-demo-path-"));
  folders.push(folder);
  for (const [name, body] of Object.entries(executables)) {
    writeFileSync(join(folder, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(folder, name), 0o755);
  }
  return folder;
}

function runDemo(path = process.env.PATH ?? ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEMO],
      { env: { ...process.env, PATH: path }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

describe("npm run demo's agent run", () => {
  it("without python3 on the PATH, answers that the script failed, says the demo is incomplete and exits with code 1", async () => {
    const { code, stdout, stderr } = await runDemo(pathWith({}));
    expect(stdout).toContain("command not found: python3");
    expect(stdout).toContain(
      "\n[ai]\nI could not profile sample.csv: the csv-insights script failed (exit code 127: command not found: python3).\n",
    );
    expect(stdout).not.toContain("sample.csv has");
    expect(stderr).toContain(
      `${INCOMPLETE} (exit code 127: command not found: python3). It needs python3 (Python 3.8+) on the PATH.`,
    );
    expect(code).toBe(1);
  });

  it("when the script fails, reports its exit code and first stderr line instead of results", async () => {
    const { code, stdout, stderr } = await runDemo(pathWith({ python3: "echo 'Traceback: boom' >&2\nexit 3" }));
    expect(stdout).toContain(
      "\n[ai]\nI could not profile sample.csv: the csv-insights script failed (exit code 3: Traceback: boom).\n",
    );
    expect(stdout).not.toContain("sample.csv has");
    expect(stderr).toContain(`${INCOMPLETE} (exit code 3: Traceback: boom).`);
    expect(code).toBe(1);
  });

  it("when the script succeeds without a profile, claims no numbers", async () => {
    const { code, stdout } = await runDemo(pathWith({ python3: "echo 'not a profile'" }));
    expect(stdout).toContain(
      "\n[ai]\nThe csv-insights script ran, but its report has no row or column count, so I cannot summarise sample.csv.\n",
    );
    expect(stdout).not.toContain("sample.csv has");
    expect(code).toBe(0);
  });

  it.skipIf(!usePython3())("with python3, answers from the script's profile and exits with code 0", async () => {
    const { code, stdout, stderr } = await runDemo();
    expect(stdout).toContain("| Rows | 8 |");
    expect(stdout).toContain("\n[ai]\nsample.csv has 8 rows and 5 columns; missing values: units 1, price 1.\n");
    expect(stderr).not.toContain(INCOMPLETE);
    expect(code).toBe(0);
  });
});
