// Decision 11 over MCP: a skill:// URI from a client must never reach a file outside the skill's
// folder, nor a file the skill does not serve, whatever the spelling: `..` plain or
// percent-encoded (once or twice, upper or lower case, inside an encoded `/`), backslashes,
// absolute paths, look-alikes, symlinks out, special files. The real server over the SDK's
// in-memory transport, real files.
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillsMcpServer, type SkillsMcpServer } from "../../src/mcp.js";
import { link, put, Sandbox, skillMd } from "./helpers.js";

const SECRET = "TOPSECRET-mcp-41d2";
const sandbox = new Sandbox();
let server: SkillsMcpServer;
let client: Client;

beforeAll(async () => {
  const base = sandbox.folder();
  put(base, "secret.txt", `${SECRET}\n`);
  put(base, "skills/secret.txt", `${SECRET}\n`);
  put(base, "skills/good/SKILL.md", skillMd("good"));
  put(base, "skills/good/references/guide.md", "# Guide\n");
  put(base, "skills/other/SKILL.md", skillMd("other", "A sibling.", "", `${SECRET} in a sibling`));
  link(base, "skills/good/references/escape.md", `${base}/secret.txt`);
  link(base, "skills/good/linked", `${base}/skills`);
  execFileSync("mkfifo", [`${base}/skills/good/references/fifo.md`]);
  server = createSkillsMcpServer({ sources: [`${base}/skills`], watchIntervalMs: 0 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "attacker", version: "1" });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client.close();
  await server.close();
  sandbox.cleanupAll();
});

// What the server answers for a URI: the text it returned, or the error code.
async function read(uri: string): Promise<string> {
  try {
    const { contents } = await client.readResource({ uri });
    return contents
      .map((content) => ("text" in content ? content.text : Buffer.from(content.blob, "base64").toString()))
      .join("");
  } catch (error) {
    return `error ${(error as { code: number }).code}`;
  }
}

describe("resources/read of skill:// URIs", () => {
  it("refuses every spelling of a way out of the skill's folder with InvalidParams", async () => {
    const attempts = [
      "skill://good/../secret.txt",
      "skill://good/../../secret.txt",
      "skill://good/references/../../secret.txt",
      "skill://good/%2e%2e/secret.txt",
      "skill://good/%2E%2E/secret.txt",
      "skill://good/.%2e/secret.txt",
      "skill://good/%2e%2e%2fsecret.txt",
      "skill://good/%2e%2e%2F%2e%2e%2Fsecret.txt",
      "skill://good/references%2f..%2f..%2fsecret.txt",
      "skill://good/%252e%252e/secret.txt",
      "skill://good/..%5csecret.txt",
      "skill://good/%5c..%5csecret.txt",
      "skill://good/%2Ftmp%2Fsecret.txt",
      "skill://good//etc/passwd",
      "skill://good/C:%5Cwindows",
      "skill://good/\u2025/secret.txt",
      "skill://good/%EF%BC%8E%EF%BC%8E/secret.txt",
      "skill://good/references/escape.md",
      "skill://good/linked/secret.txt",
      "skill://good/linked/other/SKILL.md",
      "skill://good/references/fifo.md",
      "skill://good/%00",
      "skill://..%2fsecret.txt/SKILL.md",
      "skill://%2e%2e/secret.txt",
      "skill://good/references",
      "skill://good",
    ];
    for (const uri of attempts) expect([uri, await read(uri)]).toEqual([uri, "error -32602"]);
    // Found by the property below (seed 1361675595): a trailing slash is a folder, never the file.
    expect(await read("skill://other/SKILL.md/")).toBe("error -32602");
    // Found by the property below in a fresh clone: an encoded `/` once let `SKILL.md//` through as `SKILL.md`.
    expect(await read("skill://other/SKILL.md/%2F")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md%2F")).toBe("error -32602");
    // Found by the property below (seed 739671322): a last `.` names the folder it is in, like a trailing slash.
    expect(await read("skill://other/SKILL.md/.")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md/./.")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md/%2e")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md/%2E")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md/.%2F")).toBe("error -32602");
    expect(await read("skill://other/SKILL.md/%2F.")).toBe("error -32602");
    expect(await read("skill://other/./SKILL.md")).not.toMatch(/^error/);
    expect(await read("skill://good/references/guide.md")).toBe("# Guide\n");
  });

  it("never returns the secret for any URI built from traversal pieces", async () => {
    const piece = fc.constantFrom(
      "..",
      "%2e%2e",
      "%2E%2e",
      ".%2e",
      "%2e.",
      ".",
      "",
      "%2f",
      "%2F",
      "%5c",
      "\\",
      "secret.txt",
      "good",
      "other",
      "references",
      "linked",
      "escape.md",
      "SKILL.md",
      "%252e%252e",
      "\u2025",
      "．．",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("good", "other", "..", "%2e%2e"),
        async (pieces, skill) => {
          const answer = await read(`skill://${skill}/${pieces.join("/")}`);
          // Only the sibling's own SKILL.md mentions the secret, and only when asked for by name.
          if (answer.includes(SECRET))
            expect(`skill://${skill}/${pieces.join("/")}`).toMatch(/^skill:\/\/other\/(\.?\/)*SKILL\.md$/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("confines directory reads the same way", async () => {
    for (const uri of [
      "skill://good/..",
      "skill://good/%2e%2e",
      "skill://good/linked",
      "skill://good/references%2f..%2f..",
    ]) {
      await expect(
        client.request(
          { method: "resources/directory/read", params: { uri } } as never,
          (await import("zod")).z.unknown(),
        ),
      ).rejects.toMatchObject({ code: -32602 });
    }
  });
});
