// Replays a documented MCP exchange (`→ request` and `← response` lines) against the built
// `skillset mcp`, over stdio as a client would, and compares each response with what the page shows.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

interface Step {
  request: { id: number | string; method: string };
  /** The response as shown, continuation lines joined; `…` marks where the page cuts it. */
  shown: string;
}

/** The `→` requests of a transcript, each with the `←` response after it. */
function steps(transcript: string): Step[] {
  const found: Step[] = [];
  for (const line of transcript.split("\n")) {
    if (line.startsWith("→ ")) found.push({ request: JSON.parse(line.slice(2)) as Step["request"], shown: "" });
    else if (line.startsWith("← ")) found.at(-1)!.shown = line.slice(2);
    else if (line.trim() !== "" && found.length > 0) found.at(-1)!.shown += line.trim();
  }
  return found;
}

/** Whether `actual` holds the pieces of `shown` between its `…` cuts (and the spaces around them), in order, the first at the start and the last at the end. */
function matches(actual: string, shown: string): boolean {
  const pieces = shown.split(/\s*…\s*/);
  if (!actual.startsWith(pieces[0]!) || !actual.endsWith(pieces.at(-1)!)) return false;
  let from = 0;
  for (const piece of pieces) {
    const at = actual.indexOf(piece, from);
    if (at === -1) return false;
    from = at + piece.length;
  }
  return true;
}

/** Sends each request of the transcript to `skillset mcp <folder>`; returns a problem for each response that differs. */
export async function replayMcpExchange(
  root: string,
  cli: string,
  folder: string,
  transcript: string,
): Promise<string[]> {
  const server = spawn(process.execPath, [cli, "mcp", join(root, folder)], {
    cwd: root,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const responses = new Map<string, string>();
  const waiting = new Map<string, (line: string) => void>();
  createInterface({ input: server.stdout }).on("line", (line) => {
    const id = String((JSON.parse(line) as { id?: unknown }).id);
    const resolve = waiting.get(id);
    if (resolve) resolve(line);
    else responses.set(id, line);
  });
  const send = (message: object) => server.stdin.write(JSON.stringify(message) + "\n");
  const request = (message: { id: number | string }) =>
    new Promise<string>((resolve, reject) => {
      const id = String(message.id);
      const early = responses.get(id);
      if (early !== undefined) return resolve(early);
      const timer = setTimeout(() => reject(new Error(`no response to request ${id}`)), 20_000);
      waiting.set(id, (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      send(message);
    });
  try {
    await request({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "docs-snippets", version: "1" } },
    } as never);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const problems: string[] = [];
    for (const step of steps(transcript)) {
      const actual = await request(step.request);
      if (!matches(actual, step.shown))
        problems.push(
          `${step.request.method} (id ${step.request.id}): the server answers\n${actual}\nbut the page shows\n${step.shown}`,
        );
    }
    return problems;
  } finally {
    server.kill();
  }
}
