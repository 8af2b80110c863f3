// The payload-matched floor of the MCP tables: round trips to bench/mcp-echo-server.mjs whose
// answers are as long as the last load_skill and skills/get answers measured, next to ping.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { time } from "./measure.mjs";

const SERVER = fileURLToPath(new URL("./mcp-echo-server.mjs", import.meta.url));
const anyResult = z.record(z.string(), z.unknown());

/** The sizes the echo contenders answer with; the load_skill and skills/get contenders set them. */
export function answerSizes() {
  return {
    loadChars: 0,
    getChars: 0,
    /** Records a load_skill result: its text's length. */
    load(result) {
      this.loadChars = result.content[0].text.length;
    },
    /** Records a skills/get result: the length of its JSON. */
    get(result) {
      this.getChars = JSON.stringify(result).length;
    },
  };
}

/** A client of a new echo server process, and the contenders measured against it. */
export async function connectEcho(sizes) {
  const client = new Client({ name: "skillset-bench-echo", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: "ignore" }));
  const contenders = [
    { label: "echo ping", run: async () => ({ ...(await time(() => client.ping())), found: "pong" }) },
    {
      label: "echo tool, load_skill's answer size",
      run: async () => ({
        ...(await time(() => client.callTool({ name: "echo", arguments: { chars: sizes.loadChars } }))),
        found: "echo",
      }),
    },
    {
      label: "echo request, skills/get's answer size",
      run: async () => ({
        ...(await time(() => client.request({ method: "echo/object", params: { chars: sizes.getChars } }, anyResult))),
        found: "echo",
      }),
    },
  ];
  return { client, contenders };
}
