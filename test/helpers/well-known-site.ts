// A site on 127.0.0.1 that publishes skills at its well-known URL, scripted per path, and the
// archives it serves, built with real zip and tar libraries.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";
import yazl from "yazl";

/** How the site answers one path. */
export interface Route {
  body?: Uint8Array | string;
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
}

/** A running site: its base URL, the paths asked for, and its routes (changeable). */
export interface WellKnownSite {
  url: string;
  routes: Map<string, Route>;
  requests: string[];
  close(): Promise<void>;
}

/** Starts a site serving `routes` (path → route); anything else is a 404. */
export async function startSite(routes: Record<string, Route> = {}): Promise<WellKnownSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    requests.push(path);
    const route = table.get(path);
    if (!route) return void response.writeHead(404).end("not found");
    setTimeout(() => answer(route, response), route.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes: table,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(route: Route, response: ServerResponse): void {
  const body = typeof route.body === "string" ? Buffer.from(route.body) : Buffer.from(route.body ?? "");
  if (route.chunked) {
    response.writeHead(route.status ?? 200, route.headers);
    for (let offset = 0; offset < body.byteLength; offset += 65536)
      response.write(body.subarray(offset, offset + 65536));
    response.end();
    return;
  }
  response.writeHead(route.status ?? 200, { "content-length": String(body.byteLength), ...route.headers });
  response.end(body);
}

/** `sha256:<hex>` of some bytes. */
export const digestOf = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A discovery 0.2.0 index listing `entries`. */
export function indexJson(
  entries: Array<{ name: string; description: string; type: "skill-md" | "archive"; url: string; digest: string }>,
): string {
  return JSON.stringify({ $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json", skills: entries });
}

/** A minimal SKILL.md. */
export const skillMd = (name: string, description: string, body = `# ${name}\n\nFollow the ${name} steps.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

/** One entry of a zip: `mode` sets the Unix mode (0o120777 makes it a symbolic link). */
export interface ZipEntry {
  path: string;
  content: string | Uint8Array;
  mode?: number;
  compress?: boolean;
}

/**
 * A zip of `entries`, built by yazl. yazl refuses unsafe names, so `rename` swaps a name for
 * another of the same length in the finished bytes (names are not covered by the CRC).
 */
export async function zipOf(entries: ZipEntry[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries)
    zip.addBuffer(Buffer.from(entry.content), entry.path, {
      mode: entry.mode ?? 0o100644,
      compress: entry.compress ?? true,
    });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (from.length !== to.length) throw new Error("rename keeps the length");
    bytes = Buffer.from(bytes.toString("latin1").split(from).join(to), "latin1");
  }
  return bytes;
}

/** One entry of a tar: a file unless `type` says otherwise. */
export interface TarEntry {
  name: string;
  content?: string | Uint8Array;
  type?: "file" | "directory" | "symlink" | "link" | "fifo" | "character-device";
  linkname?: string;
}

/** A `.tar.gz` of `entries`, built by tar-stream (which writes any name it is given) and gzip. */
export async function tarGzOf(entries: TarEntry[]): Promise<Buffer> {
  const archive = pack();
  for (const entry of entries) {
    const content = entry.content === undefined ? undefined : Buffer.from(entry.content);
    const header = {
      name: entry.name,
      type: entry.type ?? "file",
      ...(entry.linkname ? { linkname: entry.linkname } : {}),
    };
    if (content) archive.entry({ ...header, size: content.byteLength }, content);
    else archive.entry(header, "");
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/**
 * `zip` with the uncompressed size its central directory declares for `name` set to `size`: a
 * zip that lies about what it inflates to.
 */
export function withDeclaredSize(zip: Buffer, name: string, size: number): Buffer {
  const patched = Buffer.from(zip);
  const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let offset = patched.indexOf(central); offset !== -1; offset = patched.indexOf(central, offset + 4)) {
    const nameLength = patched.readUInt16LE(offset + 28);
    if (patched.toString("latin1", offset + 46, offset + 46 + nameLength) === name)
      patched.writeUInt32LE(size, offset + 24);
  }
  return patched;
}
