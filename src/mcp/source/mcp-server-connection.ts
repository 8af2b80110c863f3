import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { FileListLimits, SkillFileListing } from "../../core/skill-source.js";
import { readDirectory, readResourceBytes } from "./remote-resources.js";
import { SKILLS_EXTENSION } from "../skills-extension/skill-entry.js";

/**
 * What an MCP skill source asks of its server, through one connected client: requests bounded by
 * a timeout, and failures as {@link SkillsetError}s that name the server by its label.
 */
export interface McpServerConnection {
  /** The host's own name for the server. */
  readonly label: string;
  /** Whether the client is still connected. */
  isOpen(): boolean;
  /** The server's `io.modelcontextprotocol/skills` settings, or `undefined` when it does not declare the extension. */
  skillsExtension(): unknown;
  /** One request; a failure is `mcp-unavailable` or `mcp-error` (`<method> failed`). */
  request<T>(method: string, params: Record<string, unknown>, schema: ZodType<T>): Promise<T>;
  /** A resource's raw bytes, at most `maxBytes`; a failure names the URI. */
  readBytes(uri: string, maxBytes: number): Promise<Uint8Array>;
  /** The files below a folder resource (`resources/directory/read`). */
  readDirectory(root: string, limits: FileListLimits): Promise<SkillFileListing>;
  /** `error` as the server's failure while `doing` something: unavailable (closed, timed out) or its answer. */
  failure(error: unknown, doing: string): SkillsetError;
  close(): void;
}

/** Wraps a connected client for the server the host calls `label`; each request may take `timeout` ms. */
export function createMcpServerConnection(client: Client, label: string, timeout: number): McpServerConnection {
  // A closed connection or a timeout makes the server unavailable; any other error is its answer.
  function failure(error: unknown, doing: string): SkillsetError {
    if (SkillsetError.isInstance(error)) return error;
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === ErrorCode.ConnectionClosed || code === ErrorCode.RequestTimeout || !client.transport)
      return new SkillsetError("mcp-unavailable", `MCP server '${label}' is unavailable: ${message}`);
    return new SkillsetError("mcp-error", `MCP server '${label}': ${doing}: ${message}`);
  }
  return {
    label,
    isOpen: () => client.transport !== undefined,
    skillsExtension: () => client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION],
    request: <T>(method: string, params: Record<string, unknown>, schema: ZodType<T>): Promise<T> =>
      client.request({ method, params } as never, schema as never, { timeout }).catch((error: unknown) => {
        throw failure(error, `${method} failed`);
      }) as Promise<T>,
    readBytes: (uri, maxBytes) =>
      readResourceBytes(client, uri, { timeout, maxBytes }).catch((error: unknown) => {
        throw failure(error, `reading ${uri} failed`);
      }),
    readDirectory: (root, limits) => readDirectory(client, root, limits, timeout),
    failure,
    close() {
      void client.close();
    },
  };
}
