import { describe, expect, it } from "vitest";
import { withProgress, type Terminal } from "./terminal.js";

/** A terminal that records what goes to stderr as is. */
function recordingTerminal(interactive: boolean): Terminal & { statuses: string[] } {
  const plain = (text: string) => text;
  const statuses: string[] = [];
  return {
    statuses,
    out: () => {},
    err: () => {},
    status: (text) => statuses.push(text),
    interactive,
    color: { bold: plain, dim: plain, red: plain, green: plain, yellow: plain },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("withProgress", () => {
  it("shows the label once work that yields takes longer than the delay, then erases it", async () => {
    const terminal = recordingTerminal(true);

    const result = await withProgress(
      terminal,
      "Scanning",
      async () => {
        await sleep(120);
        return 42;
      },
      30,
    );

    expect(result).toBe(42);
    expect(terminal.statuses).toEqual(["Scanning…", "\r\x1b[K"]);
  });

  it("shows nothing for work that ends before the delay", async () => {
    const terminal = recordingTerminal(true);

    await withProgress(terminal, "Scanning", () => sleep(5), 200);
    await sleep(250);

    expect(terminal.statuses).toEqual([]);
  });

  it("shows nothing when stderr is not a terminal", async () => {
    const terminal = recordingTerminal(false);

    await withProgress(terminal, "Scanning", () => sleep(80), 10);

    expect(terminal.statuses).toEqual([]);
  });

  it("erases the label when the work fails, and passes the failure on", async () => {
    const terminal = recordingTerminal(true);

    const failing = withProgress(
      terminal,
      "Scanning",
      async () => {
        await sleep(80);
        throw new Error("boom");
      },
      10,
    );

    await expect(failing).rejects.toThrow("boom");
    expect(terminal.statuses).toEqual(["Scanning…", "\r\x1b[K"]);
  });
});
