// The built CLI as a user runs it: its exit code, stdout and stderr, without colour.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const execFileAsync = promisify(execFile);

/** Runs `skillset ...args` (the built `dist/cli/main.js`); never throws for a non-zero exit. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
