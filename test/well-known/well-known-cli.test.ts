// The built CLI with a site's well-known URL as a source: list, info, render, search, prompt
// and mcp read it like a folder; plain http:// to another machine is a usage error; a site that
// is down is a warning and the folders given with it are still read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, baseEnv, runCli } from "../helpers/run-cli.js";
import { digestOf, indexJson, skillMd, startSite, tarGzOf, type WellKnownSite } from "../helpers/well-known-site.js";
import { callTool } from "../mcp/helpers.js";

const fix = skillMd("fix-issue", "Fixes a GitHub issue by number.", "# fix-issue\n\nFix issue $ARGUMENTS.");
const notes = skillMd("meeting-notes", "Takes meeting notes.");

let site: WellKnownSite;
let root: string;
let env: NodeJS.ProcessEnv;

const cli = (...args: string[]) =>
  runCli(args, { cwd: root, env: { XDG_CACHE_HOME: join(root, "cache"), HOME: root } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "skillset-wk-cli-"));
  env = baseEnv({ XDG_CACHE_HOME: join(root, "cache"), HOME: root });
  const archive = await tarGzOf([
    { name: "SKILL.md", content: fix },
    { name: "scripts/check.sh", content: "echo ok\n" },
  ]);
  site = await startSite({
    "/.well-known/agent-skills/index.json": {
      body: indexJson([
        {
          name: "fix-issue",
          description: "Fixes a GitHub issue by number.",
          type: "archive",
          url: "fix-issue.tar.gz",
          digest: digestOf(archive),
        },
        {
          name: "meeting-notes",
          description: "Takes meeting notes.",
          type: "skill-md",
          url: "meeting-notes/SKILL.md",
          digest: digestOf(notes),
        },
      ]),
    },
    "/.well-known/agent-skills/fix-issue.tar.gz": { body: archive },
    "/.well-known/agent-skills/meeting-notes/SKILL.md": { body: notes },
  });
});

afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

describe("skillset with a well-known URL", () => {
  it("list shows the index's skills from the site's source", async () => {
    const result = await cli("list", site.url, "--json");
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { skills: Array<{ name: string; status: string; source: string }> };
    expect(listed.skills.map((skill) => [skill.name, skill.status, skill.source])).toEqual([
      ["fix-issue", "ok", `well-known:${site.url}`],
      ["meeting-notes", "ok", `well-known:${site.url}`],
    ]);
  });

  it("info downloads the skill and shows its verified files; render prints its instructions", async () => {
    const info = await cli("info", "fix-issue", site.url);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain(`Source:           well-known:${site.url}`);
    expect(info.stdout).toContain("scripts/check.sh 8 B");
    const render = await cli("render", "fix-issue", site.url, "--args", "42");
    expect(render.code).toBe(0);
    expect(render.stdout).toContain("Fix issue 42.");
  });

  it("search and prompt see the skills", async () => {
    const search = await cli("search", "github issue", site.url);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain("fix-issue");
    const prompt = await cli("prompt", site.url);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain("meeting-notes");
    expect(prompt.stdout).toContain("Fixes a GitHub issue by number.");
  });

  it("mcp serves the site's skills: load_skill and read_skill_resource through the verified copy", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", site.url],
        env: env as Record<string, string>,
        stderr: "ignore",
      }),
    );
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["fix-issue", "meeting-notes"]);
      const loaded = await callTool(client, "load_skill", { skill_name: "fix-issue", arguments: "7" });
      expect(loaded.isError).toBe(false);
      expect(loaded.text).toContain("Fix issue 7.");
      expect(
        await callTool(client, "read_skill_resource", { skill_name: "fix-issue", path: "scripts/check.sh" }),
      ).toEqual({ text: "[scripts/check.sh: lines 1-1 of 1]\necho ok", isError: false });
    } finally {
      await client.close();
    }
  });

  it("http:// to another machine is a usage error naming the URL", async () => {
    const result = await cli("list", "http://example.com");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillset: http://example.com: skills are fetched over https only (http is allowed for 127.0.0.1, ::1 and localhost, for tests); use https://example.com/\n",
    );
  });

  it("a site that is down is a warning; the folder given with it is still listed", async () => {
    const folder = join(root, "local");
    mkdirSync(join(folder, "lint"), { recursive: true });
    writeFileSync(join(folder, "lint", "SKILL.md"), skillMd("lint", "Lints code."));
    const result = await cli("list", "http://127.0.0.1:9/", folder, "--json");
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as {
      skills: Array<{ name: string }>;
      diagnostics: Array<{ code: string; message: string }>;
    };
    expect(listed.skills.map((skill) => skill.name)).toEqual(["lint"]);
    expect(listed.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["site-unavailable"]);
    expect(listed.diagnostics[0]!.message).toMatch(
      /^No skills from http:\/\/127\.0\.0\.1:9\/: The skills index at http:\/\/127\.0\.0\.1:9\/\.well-known\/agent-skills\/index\.json could not be fetched: /,
    );
  });
});
