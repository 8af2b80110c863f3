// An MCP server written with the SDK for tests of mcpSkillSource: it serves skills from a map of
// URI -> content, and can be told to lie in its entries (frontmatter, dynamic, overrides).
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "yaml";
import { z } from "zod";

/** One skill of the fake server: its SKILL.md URI, and what its entry says when it should lie. */
export interface FakeSkill {
  uri: string;
  /** Replaces the frontmatter read from the SKILL.md in the entry. */
  frontmatter?: Record<string, unknown>;
  /** Replaces the manifest built from the files. */
  resources?: unknown;
}

export interface FakeServerOptions {
  skills: FakeSkill[];
  /** Every file, by URI. */
  files: Record<string, string | Uint8Array>;
  /** Declare the Skills extension. @default true */
  extension?: boolean;
  directoryRead?: boolean;
  /** Answer skills/list with an internal error. */
  failList?: boolean;
}

const params = z.record(z.string(), z.unknown()).optional();

/** A client connected in memory to a fake skills server; `requests` records every method called. */
export async function fakeSkillsClient(
  options: FakeServerOptions,
): Promise<{ client: Client; requests: string[]; files: Map<string, Uint8Array> }> {
  const files = new Map(
    Object.entries(options.files).map(([uri, content]) => [
      uri,
      typeof content === "string" ? new TextEncoder().encode(content) : content,
    ]),
  );
  const requests: string[] = [];
  const server = new McpServer({ name: "fake", version: "1" });
  server.server.registerCapabilities({
    resources: {},
    ...(options.extension === false
      ? {}
      : { extensions: { "io.modelcontextprotocol/skills": options.directoryRead ? { directoryRead: true } : {} } }),
  });
  const entryOf = (skill: FakeSkill) => {
    const root = skill.uri.slice(0, -"/SKILL.md".length);
    const text = new TextDecoder().decode(files.get(skill.uri));
    const frontmatter =
      skill.frontmatter ?? (parse(text.split("\n---")[0]!.replace(/^---\n/, "")) as Record<string, unknown>);
    const resources =
      skill.resources ??
      [...files]
        .filter(([uri]) => uri.startsWith(`${root}/`))
        .map(([uri, bytes]) => ({
          uri,
          digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
          size: bytes.byteLength,
        }));
    return { uri: skill.uri, frontmatter, resources };
  };
  const cache = { resultType: "complete", ttlMs: 0, cacheScope: "public" };
  server.server.setRequestHandler(z.object({ method: z.literal("skills/list"), params }), () => {
    requests.push("skills/list");
    if (options.failList) throw Object.assign(new Error("the skills index is offline"), { code: -32603 });
    return { ...cache, skills: options.skills.map(entryOf) };
  });
  server.server.setRequestHandler(z.object({ method: z.literal("skills/get"), params }), (request) => {
    requests.push("skills/get");
    const skill = options.skills.find((candidate) => candidate.uri === request.params?.uri);
    if (!skill)
      throw Object.assign(new Error(`No skill is served at ${String(request.params?.uri)}`), { code: -32602 });
    return { ...cache, skill: entryOf(skill) };
  });
  server.server.setRequestHandler(z.object({ method: z.literal("resources/directory/read"), params }), (request) => {
    requests.push("resources/directory/read");
    const prefix = `${String(request.params?.uri)}/`;
    const children = new Map<string, { uri: string; name: string; mimeType?: string }>();
    for (const uri of files.keys()) {
      if (!uri.startsWith(prefix)) continue;
      const [name, ...below] = uri.slice(prefix.length).split("/");
      children.set(
        name!,
        below.length > 0 ? { uri: prefix + name, name: name!, mimeType: "inode/directory" } : { uri, name: name! },
      );
    }
    return { resultType: "complete", resources: [...children.values()] };
  });
  server.server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    requests.push(`resources/read ${request.params.uri}`);
    const bytes = files.get(request.params.uri);
    if (!bytes) throw Object.assign(new Error(`Unknown resource ${request.params.uri}`), { code: -32602 });
    return { contents: [{ uri: request.params.uri, text: new TextDecoder().decode(bytes) }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return { client, requests, files };
}
