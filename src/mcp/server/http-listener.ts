import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SkillsetError } from "../../errors/skillset-error.js";

/** Where {@link SkillsMcpServer.listen} listens. */
export interface SkillsMcpHttpOptions {
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** The address to bind; anything but loopback exposes the skills to the network. @default "127.0.0.1" */
  host?: string;
}

/** A running Streamable HTTP endpoint. */
export interface SkillsMcpHttpListener {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP at `/mcp`, one MCP session per client: a POST without a session id starts one
 * (the transport answers anything but `initialize` with an error), later requests carry the id
 * the server gave. Bound to loopback, the Host header must name it, so a web page cannot reach
 * the skills through DNS rebinding. A port in use, or a host that cannot be bound or resolved,
 * rejects with a {@link SkillsetError} `cannot-listen`.
 */
export async function listenOverHttp(
  connect: (transport: Transport, sessionId: string) => Promise<void>,
  options: SkillsMcpHttpOptions,
): Promise<SkillsMcpHttpListener> {
  const host = options.host ?? "127.0.0.1";
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp")
      return reply(response, 404, "Not found: the MCP endpoint is /mcp");
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = transports.get(sessionId);
      if (!transport) return reply(response, 404, `Unknown session ${sessionId}: start a new one with initialize`);
      return transport.handleRequest(request, response);
    }
    if (request.method !== "POST") return reply(response, 400, "Start a session with a POST of initialize");
    const body = await readJson(request);
    if (!body.ok) return reply(response, body.status, body.message);
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void transports.set(id, transport),
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    transport.onclose = () => transports.delete(id);
    await connect(transport, id);
    await transport.handleRequest(request, response, body.value);
    // Anything but initialize started no session: nothing to keep.
    if (!transports.has(id)) await transport.close();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        reply(response, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(listenError(error, host, options.port ?? 0));
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", fail);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  if (LOOPBACK.has(host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shownHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}/mcp`,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Why the server could not listen, as a {@link SkillsetError} `cannot-listen` in one sentence
 * (`port 3000 on 127.0.0.1 is in use`); Node's error is its `cause`.
 */
function listenError(error: Error, host: string, port: number): SkillsetError {
  const where = `port ${port} on ${host}`;
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    code === "EADDRINUSE"
      ? `${where} is in use`
      : code === "EACCES"
        ? `${where} needs privileges this process does not have`
        : code === "EADDRNOTAVAIL"
          ? `${host} is not an address of this machine`
          : code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME"
            ? `the host name ${host} does not resolve to an address`
            : `cannot listen on ${where}: ${error.message}`;
  return new SkillsetError("cannot-listen", message, { cause: error });
}

function reply(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(
  request: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return { ok: false, status: 413, message: `The request body is larger than ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { ok: false, status: 400, message: "The request body is not JSON" };
  }
}
