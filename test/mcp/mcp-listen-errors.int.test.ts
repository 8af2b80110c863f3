// `skillset mcp --http` where it cannot listen: a port in use, an address this machine does not
// have, a host name that does not resolve. One line naming the cause and the option to change,
// exit 1, no stack; the library rejects with a SkillsetError `cannot-listen`.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillsetError } from "../../src/errors/skillset-error.js";
import { createSkillsMcpServer } from "../../src/mcp/server/skills-mcp-server.js";
import { tempTree } from "../helpers/skill-tree.js";
import { CLI } from "./helpers.js";

let busy: Server;
let port: number;
const tree = tempTree("skillset-mcp-listen-");
tree.skill("greet", "greet", "Greets people.");

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  port = (busy.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => busy.close(() => resolve()));
  tree.cleanup();
});

/** Runs `skillset mcp <args>` to its end. */
function mcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, "mcp", ...args, tree.root], { encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr }),
    );
  });
}

describe("skillset mcp --http where it cannot listen", () => {
  const served = "skillset mcp: 1 skill from 1 skills folder\n";

  it("a port in use", async () => {
    expect(await mcp(["--http", String(port)])).toEqual({
      code: 1,
      stdout: "",
      stderr: `${served}skillset: port ${port} on 127.0.0.1 is in use; choose another with --http\n`,
    });
  });

  it("an address that is not this machine's (TEST-NET-1)", async () => {
    expect(await mcp(["--http", "0", "--host", "192.0.2.1"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `${served}skillset: 192.0.2.1 is not an address of this machine; choose another with --host\n`,
    });
  });

  it("a host name that does not resolve (.invalid never does)", async () => {
    expect(await mcp(["--http", "0", "--host", "no-such-host.invalid"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `${served}skillset: the host name no-such-host.invalid does not resolve to an address; choose another with --host\n`,
    });
  });
});

it("the library: listen() rejects with a SkillsetError cannot-listen, Node's error as its cause", async () => {
  const server = createSkillsMcpServer({ sources: [tree.root] });
  try {
    const error = await server.listen({ port }).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(SkillsetError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "cannot-listen",
      message: `port ${port} on 127.0.0.1 is in use`,
      cause: { code: "EADDRINUSE" },
    });
  } finally {
    await server.close();
  }
});
