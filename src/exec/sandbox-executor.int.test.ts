import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalShellBackend } from "deepagents";
import { afterEach, describe, expect, it } from "vitest";
import { createSandboxExecutor, shellQuote } from "./sandbox-executor.js";

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

describe("createSandboxExecutor over deepagents' LocalShellBackend", () => {
  it("runs the approved argv in the skill's folder with every argument quoted, so nothing expands", async () => {
    const root = mkdtempSync(join(tmpdir(), "skillset-sandbox-"));
    folders.push(root);
    writeFileSync(join(root, "show.sh"), 'printf "%s|" "$@"; pwd\n');
    const executor = createSandboxExecutor(new LocalShellBackend({ rootDir: root }));
    const result = await executor.run({ argv: ["sh", "show.sh", "$HOME", "a b", "it's", "$(id)"], cwd: root });
    expect(result).toMatchObject({ exitCode: 0, stdout: `$HOME|a b|it's|$(id)|${root}\n`, stderr: "", timedOut: false });
  });

  it("reports the exit code and kills a run at its timeout", async () => {
    const root = mkdtempSync(join(tmpdir(), "skillset-sandbox-"));
    folders.push(root);
    const executor = createSandboxExecutor(new LocalShellBackend({ rootDir: root }), { timeoutSeconds: 1 });
    expect(await executor.run({ argv: ["sh", "-c", "exit 3"], cwd: root })).toMatchObject({ exitCode: 3, timedOut: false });
    const started = Date.now();
    expect(await executor.run({ argv: ["sleep", "20"], cwd: root })).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: true });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("quotes for a POSIX shell", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("$(rm -rf /)")).toBe("'$(rm -rf /)'");
  });
});
