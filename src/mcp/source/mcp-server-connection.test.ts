import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SkillsetError } from "../../errors/skillset-error.js";
import { createMcpServerConnection } from "./mcp-server-connection.js";

/** Just enough of the SDK's client: every request fails with `error`. */
function failingClient(error: unknown, connected = true) {
  const client = {
    transport: connected ? {} : undefined,
    request: () => Promise.reject(error),
    readResource: () => Promise.reject(error),
    getServerCapabilities: () => ({ extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } }),
  };
  return client as unknown as Client;
}

describe("createMcpServerConnection", () => {
  it("names a closed connection or a timeout as the server being unavailable", async () => {
    const closed = createMcpServerConnection(
      failingClient(new McpError(ErrorCode.ConnectionClosed, "Connection closed")),
      "docs",
      1000,
    );
    await expect(closed.request("skills/list", {}, z.object({}))).rejects.toMatchObject({
      code: "mcp-unavailable",
      message: "MCP server 'docs' is unavailable: MCP error -32000: Connection closed",
    });
    const slow = createMcpServerConnection(
      failingClient(new McpError(ErrorCode.RequestTimeout, "Request timed out")),
      "docs",
      1000,
    );
    await expect(slow.readBytes("skill://a/SKILL.md", 10)).rejects.toMatchObject({
      code: "mcp-unavailable",
      message: "MCP server 'docs' is unavailable: MCP error -32001: Request timed out",
    });
  });

  it("names any other error as the server's answer, with what was being done", async () => {
    const connection = createMcpServerConnection(
      failingClient(new McpError(ErrorCode.InternalError, "the index is offline")),
      "docs",
      1000,
    );
    await expect(connection.request("skills/get", {}, z.object({}))).rejects.toMatchObject({
      code: "mcp-error",
      message: "MCP server 'docs': skills/get failed: MCP error -32603: the index is offline",
    });
    await expect(connection.readBytes("skill://a/r.md", 10)).rejects.toMatchObject({
      code: "mcp-error",
      message: "MCP server 'docs': reading skill://a/r.md failed: MCP error -32603: the index is offline",
    });
  });

  it("counts any error as unavailability once the client is disconnected, and keeps its own errors", () => {
    const gone = createMcpServerConnection(failingClient(new Error("x"), false), "docs", 1000);
    expect(gone.isOpen()).toBe(false);
    expect(gone.failure(new Error("socket hang up"), "skills/list failed")).toMatchObject({
      code: "mcp-unavailable",
      message: "MCP server 'docs' is unavailable: socket hang up",
    });
    const own = new SkillsetError("too-large", "too big");
    expect(gone.failure(own, "reading")).toBe(own);
  });

  it("gives the server's Skills extension settings", () => {
    const connection = createMcpServerConnection(failingClient(new Error("x")), "docs", 1000);
    expect([connection.isOpen(), connection.skillsExtension()]).toEqual([true, { directoryRead: true }]);
  });
});
