// The Skills extension as `skillset mcp` serves it, checked with the SDK's client against the
// files on disk: skills/list (paginated), skills/get, digests, limits, directory reads, changes.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempTree } from "../helpers/skill-tree.js";
import {
  errorOf,
  eventually,
  httpClient,
  httpServer,
  rawRequest,
  stdioClient,
  type ConnectedClient,
} from "./helpers.js";

interface Entry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string; size: number }>;
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function listAll(
  client: ConnectedClient["client"],
): Promise<{ pages: number; skills: Entry[]; first: Record<string, unknown> }> {
  const skills: Entry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let first: Record<string, unknown> | undefined;
  do {
    const page = await rawRequest(client, "skills/list", cursor === undefined ? {} : { cursor });
    first ??= page;
    skills.push(...(page.skills as Entry[]));
    cursor = page.nextCursor as string | undefined;
    pages++;
  } while (cursor !== undefined);
  return { pages, skills, first: first! };
}

describe("the Skills extension of skillset mcp", () => {
  let tree: ReturnType<typeof tempTree>;
  let skills: string;
  let connected: ConnectedClient;

  beforeAll(async () => {
    tree = tempTree("skillset-ext-");
    skills = join(tree.root, "skills");
    // 120 skills: three pages of 50.
    for (let index = 0; index < 120; index++) tree.skill(`skills/skill-${String(index).padStart(3, "0")}`);
    tree.write(
      "skills/pdf-processing/SKILL.md",
      "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nuser-invocable: true\nmetadata:\n  version: 2.1\n  team: docs\n---\n\nChoose the matching template from `templates/`.\n",
    );
    tree.write("skills/pdf-processing/templates/invoice.md", "# Invoice\n");
    tree.write("skills/pdf-processing/templates/regional/eu-invoice.md", "# EU invoice\n");
    tree.write("skills/pdf-processing/scripts/extract.py", "print('extract')\n");
    writeFileSync(join(skills, "pdf-processing/logo.bin"), Uint8Array.from([0, 1, 2, 255]));
    for (let index = 0; index < 512; index++) tree.write(`skills/too-many/files/f${index}.txt`, "x");
    tree.skill("skills/too-many");
    connected = await stdioClient([skills]);
  });
  afterAll(async () => {
    await connected.close();
    tree.cleanup();
  });

  it("says at start, on stderr, which skill is over the extension's limits (once serving: it lists every skill's files)", async () => {
    await vi.waitFor(
      () =>
        expect(connected.stderr()).toContain(
          `skillset mcp: not serving skill 'too-many' over the Skills extension: it has more than 512 files, the Skills extension's limit (${join(skills, "too-many/SKILL.md")})`,
        ),
      { timeout: 5000 },
    );
    expect(connected.stderr().indexOf("serving over stdio")).toBeLessThan(connected.stderr().indexOf("not serving"));
    expect(connected.stderr()).toMatch(
      /not serving skill 'too-many'.*\nskillset mcp: the Skills extension serves all but 1 skill \(checked in \d+\.\d s\)\n/,
    );
  });

  it("lists every served skill once across pages, with resultType, ttlMs and cacheScope", async () => {
    const { pages, skills: entries, first } = await listAll(connected.client);
    expect(pages).toBe(3);
    expect(first).toMatchObject({ resultType: "complete", ttlMs: 10_000, cacheScope: "public" });
    expect(typeof first.nextCursor).toBe("string");
    const uris = entries.map((entry) => entry.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toHaveLength(121);
    expect(uris).not.toContain("skill://too-many/SKILL.md");
    expect(uris[0]).toBe("skill://pdf-processing/SKILL.md");
    expect(uris.at(-1)).toBe("skill://skill-119/SKILL.md");
  });

  it("gives the frontmatter as written and every file with the sha256 digest and size of its bytes on disk", async () => {
    const { skill } = (await rawRequest(connected.client, "skills/get", {
      uri: "skill://pdf-processing/SKILL.md",
    })) as { skill: Entry };
    expect(skill.uri).toBe("skill://pdf-processing/SKILL.md");
    expect(skill.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      license: "Apache-2.0",
      "user-invocable": true,
      metadata: { version: 2.1, team: "docs" },
    });
    expect(skill.resources.map((file) => file.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/logo.bin",
      "skill://pdf-processing/scripts/extract.py",
      "skill://pdf-processing/templates/invoice.md",
      "skill://pdf-processing/templates/regional/eu-invoice.md",
    ]);
    for (const file of skill.resources) {
      const bytes = readFileSync(join(skills, "pdf-processing", file.uri.slice("skill://pdf-processing/".length)));
      expect(file).toEqual({ uri: file.uri, digest: sha256(bytes), size: bytes.byteLength });
      expect(file.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const { contents } = await connected.client.readResource({ uri: file.uri });
      const content = contents[0]!;
      const served = "blob" in content ? Buffer.from(content.blob, "base64") : Buffer.from(content.text);
      expect(sha256(served)).toBe(file.digest);
    }
  });

  it("answers skills/get for anything but a served skill's SKILL.md with -32602", async () => {
    const { client } = connected;
    for (const uri of [
      "skill://pdf-processing/templates/invoice.md",
      "skill://nope/SKILL.md",
      "skill://too-many/SKILL.md",
      "skill://pdf-processing",
      "https://example.com/SKILL.md",
      "skill://pdf-processing/SKILL.md/",
      "skill://pdf-processing/SKILL.md/.",
      "skill://pdf-processing/SKILL.md/%2e",
    ]) {
      expect((await errorOf(rawRequest(client, "skills/get", { uri }))).code).toBe(-32602);
    }
    expect(await errorOf(rawRequest(client, "skills/get", { uri: "skill://too-many/SKILL.md" }))).toEqual({
      code: -32602,
      message:
        "MCP error -32602: No skill is served at skill://too-many/SKILL.md: it has more than 512 files, the Skills extension's limit",
    });
    expect((await errorOf(rawRequest(client, "skills/get", {}))).code).toBe(-32602);
    expect((await errorOf(client.readResource({ uri: "skill://too-many/files/f1.txt" }))).code).toBe(-32602);
  });

  it("reads directories one level at a time, and refuses files and unknown folders as directories", async () => {
    const { client } = connected;
    expect(await rawRequest(client, "resources/directory/read", { uri: "skill://pdf-processing/templates" })).toEqual({
      resultType: "complete",
      resources: [
        { uri: "skill://pdf-processing/templates/invoice.md", name: "invoice.md", mimeType: "text/markdown", size: 10 },
        { uri: "skill://pdf-processing/templates/regional", name: "regional", mimeType: "inode/directory" },
      ],
    });
    const root = (await rawRequest(client, "resources/directory/read", { uri: "skill://pdf-processing" })) as {
      resources: Array<{ name: string }>;
    };
    expect(root.resources.map((child) => child.name)).toEqual(["SKILL.md", "logo.bin", "scripts", "templates"]);
    expect(
      await errorOf(rawRequest(client, "resources/directory/read", { uri: "skill://pdf-processing/SKILL.md" })),
    ).toEqual({
      code: -32602,
      message: "MCP error -32602: skill://pdf-processing/SKILL.md is not a directory resource",
    });
    expect(
      (await errorOf(rawRequest(client, "resources/directory/read", { uri: "skill://pdf-processing/nope" }))).code,
    ).toBe(-32602);
    expect(
      (await errorOf(rawRequest(client, "resources/directory/read", { uri: "skill://pdf-processing/%2e%2e" }))).code,
    ).toBe(-32602);
  });

  it("follows the files: a changed file changes its digest, a new skill and a new file are listed and readable", async () => {
    const { client, notifications } = connected;
    notifications.length = 0;
    writeFileSync(join(skills, "pdf-processing/templates/invoice.md"), "# Invoice, second edition\n");
    tree.write("skills/pdf-processing/templates/credit-note.md", "# Credit note\n");
    tree.skill("skills/zz-new");
    const { skill } = (await rawRequest(client, "skills/get", { uri: "skill://pdf-processing/SKILL.md" })) as {
      skill: Entry;
    };
    const invoice = skill.resources.find((file) => file.uri.endsWith("/invoice.md"))!;
    expect(invoice).toEqual({
      uri: "skill://pdf-processing/templates/invoice.md",
      digest: sha256(Buffer.from("# Invoice, second edition\n")),
      size: 26,
    });
    expect(skill.resources.map((file) => file.uri)).toContain("skill://pdf-processing/templates/credit-note.md");
    expect(
      (await client.readResource({ uri: "skill://pdf-processing/templates/credit-note.md" })).contents[0],
    ).toMatchObject({ text: "# Credit note\n" });
    await eventually(() => notifications.some((note) => note.method === "notifications/resources/list_changed"));
    expect((await listAll(client)).skills.map((entry) => entry.uri)).toContain("skill://zz-new/SKILL.md");
  });
});

describe("the Skills extension over Streamable HTTP", () => {
  let tree: ReturnType<typeof tempTree>;
  beforeAll(() => {
    tree = tempTree("skillset-ext-http-");
  });
  let server: Awaited<ReturnType<typeof httpServer>>;

  beforeAll(async () => {
    tree.skill("skills/one");
    tree.write("skills/one/references/a.md", "A\n");
    server = await httpServer([join(tree.root, "skills")]);
  });
  afterAll(async () => {
    await server.stop();
    tree.cleanup();
  });

  it("serves the same entries and bytes", async () => {
    const connected = await httpClient(server.url);
    try {
      const { skills } = await listAll(connected.client);
      expect(skills).toEqual([
        {
          uri: "skill://one/SKILL.md",
          frontmatter: { name: "one", description: "Use one for tests." },
          resources: [
            {
              uri: "skill://one/SKILL.md",
              digest: sha256(readFileSync(join(tree.root, "skills/one/SKILL.md"))),
              size: readFileSync(join(tree.root, "skills/one/SKILL.md")).byteLength,
            },
            { uri: "skill://one/references/a.md", digest: sha256(Buffer.from("A\n")), size: 2 },
          ],
        },
      ]);
    } finally {
      await connected.close();
    }
  });
});
