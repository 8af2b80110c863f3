// A bare MCP server for the payload-matched floor of the MCP tables: the SDK's own McpServer over
// stdio, answering the tool `echo` and the request `echo/object` with text of the length asked for
// and doing nothing else, so a round trip carries what a load_skill or skills/get answer carries,
// through the same SDK and the same kind of pipe, without skillset's work.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

// Written like a skill's Markdown: line breaks, quotes and backticks, which JSON escapes.
const SAMPLE =
  '## Workflow\n\n1. Run `scripts/run.py --input "data.csv"` and read the report it writes.\n2. Keep each step\'s output table.\n';
const textOf = (chars) => SAMPLE.repeat(Math.ceil(chars / SAMPLE.length)).slice(0, chars);
const chars = z.number().int().min(0).max(16_000_000);

const server = new McpServer({ name: "echo", version: "1" });
server.registerTool("echo", { description: "Answers text of the given length.", inputSchema: { chars } }, (input) => ({
  content: [{ type: "text", text: textOf(input.chars) }],
}));
server.server.setRequestHandler(
  z.object({ method: z.literal("echo/object"), params: z.object({ chars }) }),
  (request) => ({ text: textOf(request.params.chars) }),
);
await server.connect(new StdioServerTransport());
