import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: `$HOME|a b|it's|$(id)|${root}\n`,
      stderr: "",
      timedOut: false,
    });
  });

  it("reports the exit code and kills a run at its timeout", async () => {
    const root = mkdtempSync(join(tmpdir(), "skillset-sandbox-"));
    folders.push(root);
    const executor = createSandboxExecutor(new LocalShellBackend({ rootDir: root }), { timeoutSeconds: 1 });
    expect(await executor.run({ argv: ["sh", "-c", "exit 3"], cwd: root })).toMatchObject({
      exitCode: 3,
      timedOut: false,
    });
    const started = Date.now();
    expect(await executor.run({ argv: ["sleep", "20"], cwd: root })).toMatchObject({
      exitCode: null,
      signal: "SIGKILL",
      timedOut: true,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("gives the command its standard input, quoted so nothing in it expands; without one the command reads nothing", async () => {
    const root = mkdtempSync(join(tmpdir(), "skillset-sandbox-"));
    folders.push(root);
    const executor = createSandboxExecutor(new LocalShellBackend({ rootDir: root }));
    const event = `{"tool_input":"it's $(id) \`id\`\n"}`;
    expect(await executor.run({ argv: ["cat"], cwd: root, stdin: event })).toMatchObject({
      exitCode: 0,
      stdout: event,
    });
    expect(await executor.run({ argv: ["cat"], cwd: root })).toMatchObject({ exitCode: 0, stdout: "" });
  });

  it("passes a standard input too large for a command line through an uploaded file, removed afterwards, keeping the exit code", async () => {
    const root = mkdtempSync(join(tmpdir(), "skillset-sandbox-"));
    folders.push(root);
    const backend = new LocalShellBackend({ rootDir: root });
    const uploaded: string[] = [];
    const recording = {
      execute: (command: string) => backend.execute(command),
      uploadFiles: (files: Array<[string, Uint8Array]>) => (uploaded.push(files[0]![0]), backend.uploadFiles(files)),
    };
    const big = "x".repeat(300 * 1024);
    const result = await createSandboxExecutor(recording).run({
      argv: ["sh", "-c", "wc -c; exit 4"],
      cwd: root,
      stdin: big,
    });
    expect(result).toMatchObject({ exitCode: 4, stdout: `${big.length}\n` });
    expect(uploaded).toHaveLength(1);
    expect(existsSync(uploaded[0]!)).toBe(false);
  });

  it("refuses, without running, a standard input too large for a sandbox that cannot upload files", async () => {
    const commands: string[] = [];
    const executor = createSandboxExecutor({
      execute: (command) => (commands.push(command), { output: "", exitCode: 0 }),
    });
    const result = await executor.run({ argv: ["cat"], cwd: "/skills/x", stdin: "y".repeat(200 * 1024) });
    expect(result).toMatchObject({
      exitCode: null,
      killedReason:
        "its standard input (204800 bytes) is larger than this sandbox takes on a command line, and the sandbox cannot upload files",
    });
    expect(commands).toEqual([]);
  });

  it("quotes for a POSIX shell", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("$(rm -rf /)")).toBe("'$(rm -rf /)'");
  });
});
