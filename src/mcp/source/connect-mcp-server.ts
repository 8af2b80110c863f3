import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** An MCP server to connect to: a command that serves MCP on stdio, or a Streamable HTTP URL. */
export type McpServerTarget =
  | {
      command: string;
      args?: string[];
      /** The server's environment. @default the SDK's safe default (PATH, HOME, …), no secrets */
      env?: Record<string, string>;
      cwd?: string;
      /** What happens to the server's stderr. @default "inherit" */
      stderr?: "inherit" | "ignore" | "pipe";
    }
  | { url: string | URL; headers?: Record<string, string> };

/**
 * Connects the MCP SDK's client to a server, for `mcpSkillSource`: starts the command and talks
 * over its stdin and stdout, or opens a Streamable HTTP session.
 *
 * @example
 * ```ts
 * const docs = mcpSkillSource({ label: "docs", client: await connectMcpServer({ command: "npx", args: ["skillset", "mcp", "./skills"] }) });
 * ```
 */
export async function connectMcpServer(target: McpServerTarget): Promise<Client> {
  const client = new Client({ name: "skillset", version: "1" });
  const transport =
    "url" in target
      ? new StreamableHTTPClientTransport(
          new URL(target.url),
          target.headers ? { requestInit: { headers: target.headers } } : undefined,
        )
      : new StdioClientTransport({
          command: target.command,
          ...(target.args ? { args: target.args } : {}),
          ...(target.env ? { env: target.env } : {}),
          ...(target.cwd ? { cwd: target.cwd } : {}),
          stderr: target.stderr ?? "inherit",
        });
  await client.connect(transport);
  return client;
}
