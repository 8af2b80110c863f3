// The progress line a scan shows on a terminal's stderr, and erases.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseEnv, CLI, ROOT } from "../helpers/run-cli.js";
import { fields, useCliRun, writeSkill } from "./helpers.js";

const execFileAsync = promisify(execFile);
const { tempDir } = useCliRun();

describe("progress line on a terminal", () => {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  /** What the CLI writes to a pseudo-terminal (util-linux `script`) while its stdout goes to /dev/null. */
  async function stderrOnTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
    const command = `${[process.execPath, CLI, ...args].map(quote).join(" ")} >/dev/null`;
    const { stdout } = await execFileAsync("/usr/bin/script", ["-qec", command, "/dev/null"], {
      env: baseEnv({ TERM: "xterm", ...env }),
      encoding: "utf8",
      timeout: 120_000,
    });
    return stdout;
  }
  const onLinuxWithScript = it.runIf(process.platform === "linux" && existsSync("/usr/bin/script"));

  onLinuxWithScript("a quick scan shows no progress line", async () => {
    const dir = tempDir();
    writeSkill(dir, "quick", fields("quick", "Quick."));

    expect(await stderrOnTerminal(["list", dir])).toBe("");
  });

  // Needs discovery that yields to the event loop (src/sources/local-source.ts): while a scan
  // runs synchronously, the timer cannot fire. A warm scan of 10,000 skills can take less than
  // the 300 ms default on a quiet machine (about 250 ms), so the delay is set to 0 here: the line
  // shows as soon as the scan first yields.
  onLinuxWithScript(
    "a scan of 10,000 skills shows `Scanning 1 skills folder…`, then erases it",
    { timeout: 180_000 },
    async () => {
      const generator = pathToFileURL(path.join(ROOT, "bench", "generate-library.mjs")).href;
      const { ensureLibrary } = (await import(generator)) as { ensureLibrary(count: number): string };
      const library = ensureLibrary(10_000);

      expect(await stderrOnTerminal(["list", library], { SKILLSET_PROGRESS_DELAY_MS: "0" })).toBe(
        "Scanning 1 skills folder…\r\x1b[K",
      );
    },
  );
});
