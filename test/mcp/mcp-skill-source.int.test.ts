// mcpSkillSource: skills an MCP server serves, used through the catalog and the engine like any
// other source. skillset's own server (the built CLI) over stdio and Streamable HTTP, and a fake
// server written with the SDK for the cases a well-behaved server never produces.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSkillEngine, type SkillEngine, type SkillRequest, type SkillThreadState } from "../../src/host.js";
import { createCatalog, createMemorySource, type Catalog } from "../../src/index.js";
import { createLocalExecutor, createLocalSource } from "../../src/node.js";
import { connectMcpServer, mcpSkillSource } from "../../src/mcp.js";
import { tempTree } from "../helpers/skill-tree.js";
import { fakeSkillsClient } from "./fake-skills-server.js";
import { CLI, httpServer } from "./helpers.js";

// A thread over a catalog, as a host keeps one: refresh, then load / read through the engine.
async function thread(
  catalog: Catalog,
  engine: SkillEngine = createSkillEngine({ resourceReadTool: "read_skill_resource" }),
) {
  const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
  let state: SkillThreadState = {
    skills: refreshed.skills,
    catalogVersion: refreshed.version,
    loaded: [],
    resources: {},
  };
  const request = (): SkillRequest => ({ state, sources: async () => catalog.sources });
  return {
    skills: refreshed.skills,
    async load(skill: string) {
      const step = await engine.load(request(), { skill, id: skill });
      if (step.ok) state = { ...state, loaded: [...state.loaded, skill] };
      return step;
    },
    read: (skill: string, path: string) => engine.readResource(request(), { skill, path }),
    run: (skill: string, command: string) => engine.runScript(request(), { skill, command }),
  };
}

function library() {
  const tree = tempTree("skillset-src-");
  tree.write(
    "served/csv-insights/SKILL.md",
    "---\nname: csv-insights\ndescription: Profiles a CSV file.\nallowed-tools: Bash(python3:*) Read\n---\n\nRun scripts/profile.py on the file.\n",
  );
  tree.write("served/csv-insights/scripts/profile.py", "print('profile')\n");
  tree.write("served/csv-insights/scripts/hello.sh", '#!/bin/sh\necho "hello from $(basename "$PWD")"\n');
  tree.write("served/csv-insights/references/guide.md", "Guide, first edition.\n");
  tree.write(
    "local/csv-insights/SKILL.md",
    "---\nname: csv-insights\ndescription: The local CSV skill.\n---\n\nLocal steps.\n",
  );
  return { ...tree, served: join(tree.root, "served"), local: join(tree.root, "local") };
}

describe("mcpSkillSource over skillset's own server (stdio)", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  let catalog: Catalog;
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    client = await connectMcpServer({ command: process.execPath, args: [CLI, "mcp", lib.served], stderr: "ignore" });
    transport = client.transport as StdioClientTransport;
    catalog = createCatalog([createLocalSource({ path: lib.local }), mcpSkillSource({ client, label: "docs" })]);
  });
  afterAll(() => {
    catalog.close();
    lib.cleanup();
  });

  it("lists the server's skills under its label, beside a same-named local skill, neither shadowing the other", async () => {
    const snapshot = await catalog.refresh();
    expect(snapshot.skills.map((skill) => [skill.name, skill.path, skill.source])).toEqual([
      ["csv-insights", join(lib.local, "csv-insights/SKILL.md"), `local:${lib.local}`],
      ["docs:csv-insights", "skill://csv-insights/SKILL.md", "mcp:docs"],
    ]);
    expect(snapshot.shadowed).toEqual([]);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it("loads a remote skill and reads its files, verified, with the origin in the name; allowed-tools grant nothing", async () => {
    const agent = await thread(catalog);
    const step = await agent.load("docs:csv-insights");
    expect(step.ok).toBe(true);
    expect(step.text).toContain('<skill name="docs:csv-insights" path="skill://csv-insights/SKILL.md">');
    expect(step.text).toContain("Run scripts/profile.py on the file.");
    expect(step.text).toContain("- [reference] references/guide.md");
    expect(step.text).not.toContain("Recommended tools");
    expect(await agent.read("docs:csv-insights", "references/guide.md")).toEqual({
      ok: true,
      text: "[references/guide.md: lines 1-1 of 1]\nGuide, first edition.",
    });
    expect(await agent.read("docs:csv-insights", "references/missing.md")).toEqual({
      ok: false,
      text: "Error: Cannot read 'references/missing.md' in skill 'docs:csv-insights': references/missing.md is not a file of skill://csv-insights/SKILL.md as MCP server 'docs' listed it.",
    });
    expect((await agent.load("csv-insights")).text).toContain("Local steps.");
  });

  it("never runs a remote skill's scripts unless the integrator opts in: the source runs no commands", async () => {
    const agent = await thread(catalog, createSkillEngine({ scripts: { executor: createLocalExecutor() } }));
    await agent.load("docs:csv-insights");
    const refused = {
      ok: false,
      text: "Error: Command refused: skill 'docs:csv-insights' comes from a source whose scripts are not run here; read its files instead.",
    };
    expect(await agent.run("docs:csv-insights", "python3 scripts/profile.py")).toEqual(refused);
    expect(await agent.run("docs:csv-insights", "scripts/hello.sh")).toEqual(refused);
  });

  it("reads a file that changed after listing: the digest does not match, skills/get gives the new entry, the read is verified against it", async () => {
    const agent = await thread(catalog);
    await agent.load("docs:csv-insights");
    const requests = vi.spyOn(client, "request");
    writeFileSync(join(lib.served, "csv-insights/scripts/profile.py"), "print('profile, second edition')\n");
    expect(await agent.read("docs:csv-insights", "scripts/profile.py")).toEqual({
      ok: true,
      text: "[scripts/profile.py: lines 1-1 of 1]\nprint('profile, second edition')",
    });
    expect(requests.mock.calls.map(([request]) => (request as { method: string }).method)).toEqual([
      "resources/read",
      "skills/get",
      "resources/read",
    ]);
    requests.mockRestore();
  });

  it("makes a killed server's skills unavailable with a clear error, while local skills keep working", async () => {
    const agent = await thread(catalog);
    process.kill(transport.pid!, "SIGKILL");
    await vi.waitFor(() => expect(transport.pid).toBeNull(), { timeout: 5000 });
    const failed = await agent.load("docs:csv-insights");
    expect(failed).toEqual({
      ok: false,
      text: expect.stringMatching(
        /^Error: Failed to read skill file at skill:\/\/csv-insights\/SKILL\.md: MCP server 'docs' is unavailable: /,
      ),
    });
    expect((await agent.load("csv-insights")).ok).toBe(true);
    const snapshot = await catalog.refresh();
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(["csv-insights"]);
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "MCP server 'docs' is unavailable: the connection is closed",
    ]);
  });
});

describe("mcpSkillSource over Streamable HTTP", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  let server: Awaited<ReturnType<typeof httpServer>>;

  beforeAll(async () => {
    server = await httpServer([lib.served]);
  });
  afterAll(async () => {
    await server.stop();
    lib.cleanup();
  });

  it("loads and reads a skill, and trusts allowed-tools only when told to", async () => {
    const catalog = createCatalog([
      mcpSkillSource({ client: await connectMcpServer({ url: server.url }), label: "remote", trustAllowedTools: true }),
    ]);
    try {
      const agent = await thread(catalog);
      expect(agent.skills.map((skill) => [skill.name, skill.allowedTools])).toEqual([
        ["remote:csv-insights", ["Bash(python3:*)", "Read"]],
      ]);
      const step = await agent.load("remote:csv-insights");
      expect(step.text).toContain("Recommended tools while this skill is active: Bash(python3:*), Read");
      expect((await agent.read("remote:csv-insights", "scripts/profile.py")).text).toBe(
        "[scripts/profile.py: lines 1-1 of 1]\nprint('profile')",
      );
    } finally {
      catalog.close();
    }
  });
});

describe("mcpSkillSource with runScripts, for a server trusted to run code here", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  afterAll(() => lib.cleanup());

  it("copies a loaded skill's verified files into a private folder and runs its scripts there; close() removes it", async () => {
    const catalog = createCatalog([
      mcpSkillSource({
        client: await connectMcpServer({ command: process.execPath, args: [CLI, "mcp", lib.served], stderr: "ignore" }),
        label: "trusted",
        runScripts: true,
      }),
    ]);
    let folder = "";
    try {
      const agent = await thread(catalog, createSkillEngine({ scripts: { executor: createLocalExecutor() } }));
      const path = agent.skills[0]!.path;
      expect(path).toMatch(new RegExp(`^${tmpdir()}/skillset-mcp-trusted-\\w+/[0-9a-f]{16}/SKILL\\.md$`));
      folder = dirname(path);
      expect((await agent.load("trusted:csv-insights")).ok).toBe(true);
      expect(readFileSync(join(folder, "references/guide.md"), "utf8")).toBe("Guide, first edition.\n");
      expect(statSync(dirname(folder)).mode & 0o777).toBe(0o700);
      const ran = await agent.run("trusted:csv-insights", "scripts/hello.sh");
      expect(ran.ok).toBe(true);
      expect(ran.text).toContain(`hello from ${basename(folder)}`);
    } finally {
      catalog.close();
    }
    expect(existsSync(dirname(folder))).toBe(false);
  });
});

describe("mcpSkillSource against servers that do not behave", () => {
  const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
  const skillMd = (name: string, description = `Use ${name}.`) =>
    `---\nname: ${name}\ndescription: ${description}\n---\n\nSteps of ${name}.\n`;
  const createMemorySourceWith = (name: string) =>
    createMemorySource({ files: { [`/skills/${name}/SKILL.md`]: skillMd(name) } });
  let catalog: Catalog | undefined;
  afterEach(() => catalog?.close());

  it("reads no skills from a server without the extension, even with skill:// resources", async () => {
    const { client, requests } = await fakeSkillsClient({
      extension: false,
      skills: [{ uri: "skill://a/SKILL.md" }],
      files: { "skill://a/SKILL.md": skillMd("a") },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "plain" })]);
    const snapshot = await catalog.refresh();
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "MCP server 'plain' does not declare the io.modelcontextprotocol/skills extension; no skills are read from it (skill:// resources alone are not skills)",
    ]);
    expect(requests).toEqual([]);
  });

  it("reads no skills from a server whose skills/list fails, and says why", async () => {
    const { client } = await fakeSkillsClient({
      failList: true,
      skills: [{ uri: "skill://a/SKILL.md" }],
      files: { "skill://a/SKILL.md": skillMd("a") },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "flaky" }), createMemorySourceWith("local-one")]);
    const snapshot = await catalog.refresh();
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(["local-one"]);
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "MCP server 'flaky': skills/list failed: MCP error -32603: the skills index is offline",
    ]);
  });

  it("fetches nothing ahead of need: listing reads no file, loading reads SKILL.md only", async () => {
    const { client, requests } = await fakeSkillsClient({
      skills: [{ uri: "skill://a/SKILL.md" }],
      files: { "skill://a/SKILL.md": skillMd("a"), "skill://a/references/r.md": "R\n" },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "lazy" })]);
    const agent = await thread(catalog);
    expect(requests).toEqual(["skills/list"]);
    await agent.load("lazy:a");
    expect(requests).toEqual(["skills/list", "resources/read skill://a/SKILL.md"]);
    await agent.read("lazy:a", "references/r.md");
    expect(requests.at(-1)).toBe("resources/read skill://a/references/r.md");
  });

  it("refuses a SKILL.md whose frontmatter is not its entry's, after skills/get confirms the entry", async () => {
    const { client, requests } = await fakeSkillsClient({
      skills: [{ uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "A harmless helper." } }],
      files: { "skill://a/SKILL.md": skillMd("a", "Exfiltrates your keys.") },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "liar" })]);
    const agent = await thread(catalog);
    expect(agent.skills.map((skill) => skill.description)).toEqual(["A harmless helper."]);
    expect(await agent.load("liar:a")).toEqual({
      ok: false,
      text: "Error: Failed to read skill file at skill://a/SKILL.md: the frontmatter of skill://a/SKILL.md from MCP server 'liar' is not the frontmatter its entry lists; refused",
    });
    expect(requests).toEqual(["skills/list", "resources/read skill://a/SKILL.md", "skills/get"]);
  });

  it("refuses content that does not match the digest the server still publishes", async () => {
    const skill = skillMd("a");
    const { client, requests } = await fakeSkillsClient({
      skills: [
        {
          uri: "skill://a/SKILL.md",
          resources: [
            { uri: "skill://a/SKILL.md", digest: sha256(skill), size: skill.length },
            { uri: "skill://a/r.md", digest: sha256("one\n"), size: 4 },
          ],
        },
      ],
      files: { "skill://a/SKILL.md": skill, "skill://a/r.md": "two\n" },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "bad" })]);
    const agent = await thread(catalog);
    await agent.load("bad:a");
    expect(await agent.read("bad:a", "r.md")).toEqual({
      ok: false,
      text: `Error: Cannot read 'r.md' in skill 'bad:a': skill://a/r.md from MCP server 'bad' is not what its entry lists (4 bytes, ${sha256("two\n")}; the entry says 4 bytes, ${sha256("one\n")}); refused.`,
    });
    expect(requests.slice(-2)).toEqual(["resources/read skill://a/r.md", "skills/get"]);
  });

  it("names same-named skills of one server by their paths, and says which collided", async () => {
    const { client } = await fakeSkillsClient({
      skills: [{ uri: "skill://acme/billing/refunds/SKILL.md" }, { uri: "skill://acme/support/refunds/SKILL.md" }],
      files: {
        "skill://acme/billing/refunds/SKILL.md": skillMd("refunds", "Billing refunds."),
        "skill://acme/support/refunds/SKILL.md": skillMd("refunds", "Support refunds."),
      },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "acme" })]);
    const snapshot = await catalog.refresh();
    expect(snapshot.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["acme:acme.billing.refunds", "Billing refunds."],
      ["acme:acme.support.refunds", "Support refunds."],
    ]);
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "Skills of MCP server 'acme' share the name 'refunds'; each is listed by its path: skill://acme/billing/refunds/SKILL.md as 'acme:acme.billing.refunds', skill://acme/support/refunds/SKILL.md as 'acme:acme.support.refunds'",
    ]);
    const agent = await thread(catalog);
    expect((await agent.load("acme:acme.support.refunds")).text).toContain("Steps of refunds.");
  });

  it("leaves out entries that break the extension's rules, each with its reason", async () => {
    const { client } = await fakeSkillsClient({
      skills: [
        { uri: "skill://dyn/SKILL.md", resources: "dynamic" },
        {
          uri: "skill://big/SKILL.md",
          resources: [{ uri: "skill://big/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: 17 * 1024 * 1024 }],
        },
        { uri: "skill://misnamed/SKILL.md", frontmatter: { name: "other", description: "x" } },
        { uri: "skill://partial/SKILL.md", resources: [] },
        {
          uri: "skill://escape/SKILL.md",
          resources: [
            { uri: "skill://escape/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: 1 },
            { uri: "skill://escape/../x", digest: `sha256:${"a".repeat(64)}`, size: 1 },
          ],
        },
      ],
      files: {
        "skill://dyn/SKILL.md": skillMd("dyn"),
        "skill://big/SKILL.md": skillMd("big"),
        "skill://misnamed/SKILL.md": skillMd("other"),
        "skill://partial/SKILL.md": skillMd("partial"),
        "skill://escape/SKILL.md": skillMd("escape"),
      },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "odd" })]);
    const snapshot = await catalog.refresh();
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "Skill skill://dyn/SKILL.md of MCP server 'odd' is not used: its content is dynamic and cannot be verified (allowDynamic is off)",
      "Skill skill://big/SKILL.md of MCP server 'odd' is not used: its files hold 17825792 bytes, more than the Skills extension's limit of 16777216 (16 MiB)",
      "Skill skill://misnamed/SKILL.md of MCP server 'odd' is not used: its frontmatter must have a description and the name 'misnamed' its URI ends with (it has \"other\")",
      "Skill skill://partial/SKILL.md of MCP server 'odd' is not used: its resources do not list its SKILL.md",
      "Skill skill://escape/SKILL.md of MCP server 'odd' is not used: its file skill://escape/../x has a path a skill's file cannot have ('..' is not allowed; resources must be inside the skill's folder)",
    ]);
  });

  it("uses a dynamic skill when allowed: its SKILL.md still matches its frontmatter, its files come from directory reads", async () => {
    const { client } = await fakeSkillsClient({
      directoryRead: true,
      skills: [{ uri: "skill://dyn/SKILL.md", resources: "dynamic" }],
      files: { "skill://dyn/SKILL.md": skillMd("dyn"), "skill://dyn/references/a.md": "A\n" },
    });
    catalog = createCatalog([mcpSkillSource({ client, label: "live", allowDynamic: true })]);
    const agent = await thread(catalog);
    const step = await agent.load("live:dyn");
    expect(step.text).toContain("Steps of dyn.");
    expect(step.text).toContain("- [reference] references/a.md");
    expect(await agent.read("live:dyn", "references/a.md")).toEqual({
      ok: true,
      text: "[references/a.md: lines 1-1 of 1]\nA",
    });
  });

  it("refuses a label that is not a plain name", async () => {
    const { client } = await fakeSkillsClient({ skills: [], files: {} });
    expect(() => mcpSkillSource({ client, label: "a:b" })).toThrow(
      "mcpSkillSource: label \"a:b\" must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    );
  });
});
