import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Notification } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** The built CLI (`npm run build`), run as a real process. */
export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** A client connected to a server, with the notifications it got and the server's stderr. */
export interface ConnectedClient {
  client: Client;
  notifications: Notification[];
  stderr(): string;
  close(): Promise<void>;
}

function trackNotifications(client: Client): Notification[] {
  const notifications: Notification[] = [];
  client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
  return notifications;
}

/** `skillset mcp <args>` over stdio, started by the SDK's own client. */
export async function stdioClient(args: string[]): Promise<ConnectedClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", ...args],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "skillset-test", version: "1" });
  const notifications = trackNotifications(client);
  await client.connect(transport);
  return { client, notifications, stderr: () => stderr, close: () => client.close() };
}

/** `skillset mcp --http 0 <args>` as a process, with the URL it printed on stderr. */
export async function httpServer(
  args: string[],
): Promise<{ url: string; process: ChildProcess; stderr(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, "mcp", "--http", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving at (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`skillset mcp exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    process: child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A client of a Streamable HTTP server. */
export async function httpClient(url: string): Promise<ConnectedClient> {
  const client = new Client({ name: "skillset-test", version: "1" });
  const notifications = trackNotifications(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, notifications, stderr: () => "", close: () => client.close() };
}

/** Calls a tool and returns its text and whether it is an error. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return { text, isError: result.isError === true };
}

/** Sends a request the SDK has no method for (the Skills extension's). */
export function rawRequest(
  client: Client,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return client.request({ method, params } as never, z.record(z.string(), z.unknown()));
}

/** The JSON-RPC error code a promise rejects with. */
export async function errorOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message };
  }
  throw new Error("expected the request to fail");
}

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
