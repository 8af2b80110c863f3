// A real pseudo-terminal for the chat's terminal tests: tmux on a socket of its own in a temp
// folder (its own server, so nothing touches the user's tmux), one window running a command;
// keys are sent and the screen is read as the user would see it. `close()` kills that tmux
// server, and everything in it, and removes the socket.
import { execFile, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Whether tmux is on the PATH. */
export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

export interface TmuxTerminal {
  /** Types keys, as tmux's send-keys names them (`Enter`, `C-c`, or literal text). */
  send(...keys: string[]): Promise<void>;
  /** The screen's lines, trailing blank lines dropped. */
  screen(): Promise<string[]>;
  /** Waits until `check(screen)` holds; fails with the last screen after `timeoutMs`. */
  waitFor(check: (screen: string[]) => boolean, what: string, timeoutMs?: number): Promise<string[]>;
  close(): Promise<void>;
}

let sessions = 0;

/**
 * Runs `argv` (with `env` added) in a new 100x30 terminal. When the command ends, the window
 * shows `[exit <code>]` and stays open, so its last screen can be read.
 */
export async function startTerminal(argv: string[], env: Record<string, string>, cwd: string): Promise<TmuxTerminal> {
  const socket = join(tmpdir(), `skillset-tmux-${process.pid}-${++sessions}`);
  const tmux = (...args: string[]) => run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${quote(value)}`);
  const command = `cd ${quote(cwd)} && env ${assignments.join(" ")} ${argv.map(quote).join(" ")}; echo "[exit $?]"; sleep 600`;
  await tmux("new-session", "-d", "-s", "chat", "-x", "100", "-y", "30", command);
  const screen = async () => {
    const { stdout } = await tmux("capture-pane", "-p", "-t", "chat");
    const lines = stdout.split("\n").map((line) => line.trimEnd());
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines;
  };
  return {
    send: async (...keys) => {
      await tmux("send-keys", "-t", "chat", ...keys);
    },
    screen,
    async waitFor(check, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let lines = await screen();
      while (!check(lines)) {
        if (Date.now() > deadline)
          throw new Error(`Timed out waiting for ${what}; the screen was:\n${lines.join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        lines = await screen();
      }
      return lines;
    },
    close: async () => {
      await tmux("kill-server").catch(() => {});
      rmSync(socket, { force: true });
    },
  };
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
