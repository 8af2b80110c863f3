// `skillset mcp` end to end: the built CLI as a real process, driven by the MCP SDK's own client
// over stdio and over Streamable HTTP.
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempTree } from "../helpers/skill-tree.js";
import { callTool, errorOf, eventually, httpClient, httpServer, stdioClient, type ConnectedClient } from "./helpers.js";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function library() {
  const tree = tempTree("skillset-mcp-");
  tree.write(
    "skills/greet/SKILL.md",
    '---\nname: greet\ndescription: Greets someone by name.\nargument-hint: "[name]"\n---\n\n# Greet\n\nSay: Hello, $ARGUMENTS!\nThe guide is in references/guide.md.\n',
  );
  tree.write("skills/greet/references/guide.md", "Be warm.\nBe brief.\n");
  tree.write("skills/greet/scripts/hello.sh", "#!/bin/sh\necho hello from the script\n");
  tree.write(
    "skills/deploy/SKILL.md",
    "---\nname: deploy\ndescription: Deploys a version to an environment.\narguments: [env, version]\n---\n\nDeploying $version to $env.\n",
  );
  tree.write(
    "skills/secret-only/SKILL.md",
    "---\nname: secret-only\ndescription: Only a user may start this.\ndisable-model-invocation: true\n---\n\nUser-only steps.\n",
  );
  tree.write(
    "skills/model-only/SKILL.md",
    "---\nname: model-only\ndescription: Only the model loads this.\nuser-invocable: false\n---\n\nModel-only steps.\n",
  );
  tree.write("outside.txt", "not a skill file\n");
  const logo = tree.write("skills/greet/assets/logo.png", "");
  return { ...tree, skills: join(tree.root, "skills"), logo, png: PNG };
}

describe("skillset mcp over stdio", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  let connected: ConnectedClient;

  beforeAll(async () => {
    const { writeFileSync, chmodSync } = await import("node:fs");
    writeFileSync(lib.logo, lib.png);
    chmodSync(join(lib.skills, "greet/scripts/hello.sh"), 0o755);
    symlinkSync(join(lib.root, "outside.txt"), join(lib.skills, "greet/references/escape.md"));
    connected = await stdioClient([lib.skills]);
  });
  afterAll(async () => {
    await connected.close();
    lib.cleanup();
  });

  it("declares tools, prompts, resources and the Skills extension, and gives the catalog as instructions and in load_skill's description", async () => {
    const { client } = connected;
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
      extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } },
    });
    const instructions = client.getInstructions()!;
    expect(instructions).toContain("- greet (arguments: [name]): Greets someone by name.");
    expect(instructions).toContain("- deploy: Deploys a version to an environment.");
    expect(instructions).not.toContain("secret-only");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
    expect(tools[0]!.description).toContain("- model-only: Only the model loads this.");
    expect(Object.keys(tools[2]!.inputSchema.properties!)).toEqual(["skill_name", "path", "offset", "limit"]);
    expect(connected.stderr()).toContain("skillset mcp: 4 skills from 1 skills folder");
  });

  it("says on stderr why a folder that holds its skills deeper serves none", async () => {
    const parent = await stdioClient([lib.root]);
    try {
      expect((await parent.client.listTools()).tools[0]!.description).not.toContain("greet");
      expect(parent.stderr()).toContain(
        "skillset mcp: 0 skills from 1 skills folder\n" +
          `skillset mcp: ${lib.root}: warning: No skill folder in this folder, but skills lie deeper (the first: ${join(lib.skills, "deploy", "SKILL.md")}): read nested folders with the source's recursive option (--recursive on the command line)\n`,
      );
    } finally {
      await parent.close();
    }
  });

  it("says on stderr when its check of what the Skills extension serves has ended", async () => {
    await vi.waitFor(
      () =>
        expect(connected.stderr()).toMatch(
          /^skillset mcp: the Skills extension serves every skill \(checked in \d+\.\d s\)$/m,
        ),
      { timeout: 5000 },
    );
  });

  it("load_skill renders the skill with its arguments and lists its resources; read_skill_resource reads them", async () => {
    const { client } = connected;
    const loaded = await callTool(client, "load_skill", { skill_name: "greet", arguments: "Ada" });
    expect(loaded.isError).toBe(false);
    // Files by the URIs this server serves them under: a client learns nothing of the server's disk.
    expect(loaded.text).toContain('<skill name="greet" path="skill://greet/SKILL.md">');
    expect(loaded.text).toContain('<skill_resources base="skill://greet/">');
    expect(loaded.text).toContain("Paths above are relative to skill://greet/; read them with `read_skill_resource`");
    expect(loaded.text).not.toContain(lib.root);
    expect(loaded.text).toContain("Say: Hello, Ada!");
    expect(loaded.text).toContain("- [reference] references/guide.md");
    expect(loaded.text).toContain("read them with `read_skill_resource`");
    expect(await callTool(client, "read_skill_resource", { skill_name: "greet", path: "references/guide.md" })).toEqual(
      { text: "[references/guide.md: lines 1-2 of 2]\nBe warm.\nBe brief.", isError: false },
    );
    expect(await callTool(client, "read_skill_resource", { skill_name: "greet", path: "assets/logo.png" })).toEqual({
      text: "assets/logo.png is a binary file (16 bytes, looks like a PNG image); its content is not shown.",
      isError: false,
    });
  });

  it("refuses with the engine's wording, as error results, and changes nothing", async () => {
    const { client } = connected;
    expect(await callTool(client, "load_skill", { skill_name: "nope" })).toEqual({
      text: "Error: Skill 'nope' not found. Available skills: deploy, greet, model-only",
      isError: true,
    });
    expect(await callTool(client, "load_skill", { skill_name: "secret-only" })).toEqual({
      text: "Error: Skill 'secret-only' not found. Available skills: deploy, greet, model-only",
      isError: true,
    });
    expect(await callTool(client, "load_skill", { skill_name: "greet" })).toEqual({
      text: "Skill 'greet' is already loaded. Its instructions are already active.",
      isError: true,
    });
    expect(await callTool(client, "read_skill_resource", { skill_name: "deploy", path: "SKILL.md" })).toEqual({
      text: "Error: Skill 'deploy' is not loaded. Load it with load_skill first.",
      isError: true,
    });
    expect(await callTool(client, "read_skill_resource", { skill_name: "greet", path: "../outside.txt" })).toEqual({
      text: "Error: Cannot read '../outside.txt': '..' is not allowed; resources must be inside the skill's folder.",
      isError: true,
    });
    expect(
      await callTool(client, "read_skill_resource", { skill_name: "greet", path: "references/escape.md" }),
    ).toEqual({
      text: "Error: Cannot read 'references/escape.md' in skill 'greet': references/escape.md resolves outside the skill's folder; refused.",
      isError: true,
    });
    expect(await callTool(client, "unload_skill", { skill_name: "deploy" })).toEqual({
      text: "Error: Skill 'deploy' is not currently loaded. Currently loaded skills: greet.",
      isError: true,
    });
  });

  it("answers oversized and malformed tool arguments with an error result, and keeps serving", async () => {
    const { client } = connected;
    const huge = await callTool(client, "load_skill", { skill_name: "deploy", arguments: "x".repeat(20_000) });
    expect(huge.isError).toBe(true);
    expect(huge.text).toContain("Invalid arguments for tool load_skill");
    const wrongType = await callTool(client, "read_skill_resource", { skill_name: "greet", path: 7 });
    expect(wrongType.isError).toBe(true);
    expect((await callTool(client, "load_skill", { skill_name: "deploy", arguments: "prod 1.0" })).text).toContain(
      "Deploying 1.0 to prod.",
    );
    expect(await callTool(client, "unload_skill", { skill_name: "deploy" })).toMatchObject({ isError: false });
  });

  it("has no run_skill_script without --allow-scripts", async () => {
    expect((await connected.client.listTools()).tools.map((tool) => tool.name)).not.toContain("run_skill_script");
    expect(
      await callTool(connected.client, "run_skill_script", { skill_name: "greet", command: "scripts/hello.sh" }),
    ).toEqual({
      text: "MCP error -32602: Tool run_skill_script not found",
      isError: true,
    });
  });

  it("offers one prompt per skill a user may invoke, with its arguments, and renders it as the user's /name args", async () => {
    const { client } = connected;
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: "deploy",
        description: "Deploys a version to an environment.",
        arguments: [
          { name: "env", description: "Argument 1", required: false },
          { name: "version", description: "Argument 2", required: false },
        ],
      },
      {
        name: "greet",
        description: "Greets someone by name.",
        arguments: [{ name: "arguments", description: "[name]", required: false }],
      },
      {
        name: "secret-only",
        description: "Only a user may start this.",
        arguments: [
          { name: "arguments", description: "What to type after the skill's name, if anything", required: false },
        ],
      },
    ]);
    const deploy = await client.getPrompt({ name: "deploy", arguments: { env: "prod", version: "1.2 beta" } });
    expect(deploy.messages).toHaveLength(1);
    const text = (deploy.messages[0]!.content as { text: string }).text;
    expect(text).toContain("Deploying 1.2 beta to prod.");
    expect(text).toContain("The user invoked this skill: /deploy prod '1.2 beta'");
    expect(text.startsWith('<skill name="deploy" path="skill://deploy/SKILL.md">\n')).toBe(true);
    expect(text).not.toContain(lib.root);
    // The invocation loaded the skill in this session.
    expect(await callTool(client, "read_skill_resource", { skill_name: "deploy", path: "SKILL.md" })).toMatchObject({
      isError: false,
    });
    const secret = await client.getPrompt({ name: "secret-only" });
    expect((secret.messages[0]!.content as { text: string }).text).toContain("User-only steps.");
  });

  it("answers unknown prompts and oversized prompt arguments with InvalidParams", async () => {
    const { client } = connected;
    expect(await errorOf(client.getPrompt({ name: "model-only" }))).toEqual({
      code: -32602,
      message: "MCP error -32602: Unknown prompt 'model-only': no skill a user may invoke has that name",
    });
    expect(await errorOf(client.getPrompt({ name: "greet", arguments: { arguments: "y".repeat(10_001) } }))).toEqual({
      code: -32602,
      message: "MCP error -32602: The arguments of prompt 'greet' are longer than 10000 characters",
    });
  });

  it("serves every skill file as a skill:// resource, text as text and binary as base64", async () => {
    const { client } = connected;
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "skill://deploy/SKILL.md",
      "skill://greet/SKILL.md",
      "skill://model-only/SKILL.md",
      "skill://secret-only/SKILL.md",
    ]);
    expect(resources[1]).toEqual({
      uri: "skill://greet/SKILL.md",
      name: "greet",
      description: "Greets someone by name.",
      mimeType: "text/markdown",
    });
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "skill://{skill}/{+path}",
    ]);
    const skill = await client.readResource({ uri: "skill://greet/SKILL.md" });
    expect(skill.contents).toEqual([
      {
        uri: "skill://greet/SKILL.md",
        mimeType: "text/markdown",
        text: readFileSync(join(lib.skills, "greet/SKILL.md"), "utf8"),
      },
    ]);
    const logo = await client.readResource({ uri: "skill://greet/assets/logo.png" });
    expect(logo.contents).toEqual([
      { uri: "skill://greet/assets/logo.png", mimeType: "image/png", blob: Buffer.from(lib.png).toString("base64") },
    ]);
  });

  it("confines resources/read to the files a skill serves: traversal in any spelling, symlinks out and unknown skills are InvalidParams", async () => {
    const { client } = connected;
    const cases: Array<[string, string]> = [
      [
        "skill://greet/../deploy/SKILL.md",
        "Unknown resource skill://greet/../deploy/SKILL.md: '..' is not allowed; resources must be inside the skill's folder",
      ],
      [
        "skill://greet/%2e%2e/deploy/SKILL.md",
        "Unknown resource skill://greet/%2e%2e/deploy/SKILL.md: '..' is not allowed; resources must be inside the skill's folder",
      ],
      [
        "skill://greet/references%2F..%2F..%2Foutside.txt",
        "Unknown resource skill://greet/references%2F..%2F..%2Foutside.txt: a percent-encoded '/' names no file",
      ],
      [
        "skill://greet/%2Fetc%2Fpasswd",
        "Unknown resource skill://greet/%2Fetc%2Fpasswd: a percent-encoded '/' names no file",
      ],
      [
        "skill://greet/references/escape.md",
        "Unknown resource skill://greet/references/escape.md: skill 'greet' has no file references/escape.md",
      ],
      ["skill://greet/%E0%A4%A", "Unknown resource skill://greet/%E0%A4%A: it has a malformed percent-encoding"],
      ["skill://nope/SKILL.md", "Unknown resource skill://nope/SKILL.md: no skill named 'nope' is served"],
      ["file:///etc/passwd", "Unknown resource file:///etc/passwd: it is not a skill:// URI"],
      ["skill://greet/references", "skill://greet/references is a directory resource, not a file"],
    ];
    for (const [uri, message] of cases)
      expect(await errorOf(client.readResource({ uri }))).toEqual({
        code: -32602,
        message: `MCP error -32602: ${message}`,
      });
    expect(
      await callTool(client, "read_skill_resource", { skill_name: "greet", path: "references/guide.md" }),
    ).toMatchObject({ isError: false });
  });

  it("tells the client when skills change on disk: tools, prompts and resources list-changed, and the new skill everywhere", async () => {
    const { client, notifications } = connected;
    notifications.length = 0;
    lib.write("skills/added/SKILL.md", "---\nname: added\ndescription: Appeared while the server ran.\n---\n\nNew.\n");
    await eventually(() =>
      ["tools", "prompts", "resources"].every((kind) =>
        notifications.some((note) => note.method === `notifications/${kind}/list_changed`),
      ),
    );
    expect((await client.listTools()).tools[0]!.description).toContain("- added: Appeared while the server ran.");
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain("added");
    expect((await callTool(client, "load_skill", { skill_name: "added" })).text).toContain("New.");
  });
});

describe("skillset mcp with options", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  afterAll(() => lib.cleanup());

  it("--allow-scripts offers run_skill_script, under the skill's allow-list", async () => {
    const { chmodSync } = await import("node:fs");
    chmodSync(join(lib.skills, "greet/scripts/hello.sh"), 0o755);
    const connected = await stdioClient(["--allow-scripts", lib.skills]);
    try {
      const { client } = connected;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("run_skill_script");
      await callTool(client, "load_skill", { skill_name: "greet" });
      const ran = await callTool(client, "run_skill_script", { skill_name: "greet", command: "scripts/hello.sh" });
      expect(ran.isError).toBe(false);
      expect(ran.text).toContain("hello from the script");
      const refused = await callTool(client, "run_skill_script", { skill_name: "greet", command: "cat /etc/passwd" });
      expect(refused).toEqual({
        text: "Error: Command refused: argument '/etc/passwd' is an absolute path; scripts run inside the skill's folder.",
        isError: true,
      });
    } finally {
      await connected.close();
    }
  });

  it("--max-loaded bounds each session's loaded skills", async () => {
    const connected = await stdioClient(["--max-loaded", "1", lib.skills]);
    try {
      await callTool(connected.client, "load_skill", { skill_name: "greet" });
      expect(await callTool(connected.client, "load_skill", { skill_name: "deploy" })).toEqual({
        text: "Error: Cannot load skill 'deploy'. Maximum number of simultaneously loaded skills reached (1). Currently loaded: greet. Use `unload_skill(\"skill-name\")` to unload a skill you no longer need, then retry loading.",
        isError: true,
      });
    } finally {
      await connected.close();
    }
  });
});

describe("skillset mcp with a library larger than the catalog budget", () => {
  let tree: ReturnType<typeof tempTree>;
  beforeAll(() => {
    tree = tempTree("skillset-mcp-large-");
  });
  afterAll(() => tree.cleanup());

  it("offers search_skills, which finds skills the catalog leaves out", async () => {
    for (let index = 0; index < 300; index++) {
      tree.skill(
        `skills/tool-${String(index).padStart(3, "0")}`,
        undefined,
        `Handles chores of kind ${index} for the team, with checks, reports and follow-ups that keep the backlog of kind ${index} tidy.`,
      );
    }
    tree.skill("skills/invoice-parser", undefined, "Extracts line items and totals from scanned supplier invoices.");
    const connected = await stdioClient([join(tree.root, "skills")]);
    try {
      const { client } = connected;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        "load_skill",
        "unload_skill",
        "read_skill_resource",
        "search_skills",
      ]);
      const found = await callTool(client, "search_skills", { query: "supplier invoices", limit: 1 });
      expect(found).toEqual({
        text: "Skills matching 'supplier invoices', best first:\n- invoice-parser: Extracts line items and totals from scanned supplier invoices.\nLoad one with load_skill to use it.",
        isError: false,
      });
      // Nothing fits: the closest skills come as weak matches, not as answers.
      const weak = await callTool(client, "search_skills", { query: "write a Dockerfile for the team", limit: 2 });
      expect(weak.isError).toBe(false);
      expect(weak.text).toMatch(
        /^No skill matches 'write a Dockerfile for the team' well\. The closest, weak matches \(probably not what the task needs\):\n- tool-\d{3}: .+\n- tool-\d{3}: .+\nLoad one only if it clearly fits; otherwise try other words, or go on without a skill\.$/,
      );
    } finally {
      await connected.close();
    }
  });
});

describe("skillset mcp over Streamable HTTP", () => {
  let lib: ReturnType<typeof library>;
  beforeAll(() => {
    lib = library();
  });
  let server: Awaited<ReturnType<typeof httpServer>>;

  beforeAll(async () => {
    server = await httpServer([lib.skills]);
  });
  afterAll(async () => {
    await server.stop();
    lib.cleanup();
  });

  it("listens on 127.0.0.1 and keeps each session's loaded skills apart", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const first = await httpClient(server.url);
    const second = await httpClient(server.url);
    try {
      expect((await callTool(first.client, "load_skill", { skill_name: "greet", arguments: "Bo" })).text).toContain(
        "Say: Hello, Bo!",
      );
      expect(
        await callTool(first.client, "read_skill_resource", { skill_name: "greet", path: "references/guide.md" }),
      ).toMatchObject({ isError: false });
      expect(
        await callTool(second.client, "read_skill_resource", { skill_name: "greet", path: "references/guide.md" }),
      ).toEqual({
        text: "Error: Skill 'greet' is not loaded. Load it with load_skill first.",
        isError: true,
      });
      expect((await second.client.readResource({ uri: "skill://greet/references/guide.md" })).contents).toEqual([
        { uri: "skill://greet/references/guide.md", mimeType: "text/markdown", text: "Be warm.\nBe brief.\n" },
      ]);
      expect(
        await errorOf(second.client.readResource({ uri: "skill://greet/%2e%2e/%2e%2e/outside.txt" })),
      ).toMatchObject({ code: -32602 });
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("refuses requests whose Host is not the loopback address it is bound to (DNS rebinding), and other paths", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const { request } = await import("node:http");
    const post = (path: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(server.url);
        const body = JSON.stringify(initialize);
        const call = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: "POST",
            headers: {
              host,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "content-length": Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode!);
          },
        );
        call.on("error", reject);
        call.end(body);
      });
    expect(await post("/mcp", "evil.example:80")).toBe(403);
    expect(await post("/other", new URL(server.url).host)).toBe(404);
  });
});
