// The built CLI over `npm:` sources: fixture packages packed with `npm pack` and installed from
// the tarballs into a temp project with a real (offline) `npm install`, then read from the
// project folder by list, info, render, search, prompt and mcp.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmProject, skillFile, type FixturePackage } from "../helpers/npm-project.js";
import { CLI, runCli } from "../helpers/run-cli.js";

const PACKAGES: FixturePackage[] = [
  {
    manifest: { name: "@acme/skills-pack", version: "1.4.0", exports: { ".": "./index.js" } },
    files: {
      "index.js": "export {};\n",
      "skills/deploy-checklist/SKILL.md": skillFile(
        "deploy-checklist",
        "Checklist for deploying a release.",
        "# Deploy\n\nDeploy version $ARGUMENTS after the checks in references/checks.md.\n",
      ),
      "skills/deploy-checklist/references/checks.md": "Run the tests.\n",
      "skills/release-notes/SKILL.md": skillFile("release-notes", "Writes release notes from merged changes."),
    },
  },
  {
    manifest: { name: "root-skill-pkg", version: "0.2.0" },
    files: { "SKILL.md": skillFile("root-skill-pkg", "A package that is one skill.") },
  },
];

let fixture: ReturnType<typeof npmProject>;
let home: string;
beforeAll(() => {
  fixture = npmProject(PACKAGES, { skills: ["npm:@acme/skills-pack", "npm:root-skill-pkg"] });
  home = mkdtempSync(join(tmpdir(), "skillset-npm-home-"));
}, 120_000);
afterAll(() => {
  fixture.cleanup();
  rmSync(home, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runCli(args, { cwd: fixture.project, env: { HOME: home, XDG_DATA_HOME: join(home, "data") } });

describe("skillset over npm: sources", () => {
  it("list npm: lists the skills of the packages the project's skills field names", async () => {
    const result = await cli("list", "npm:", "--json");
    expect(result.code).toBe(0);
    const listing = JSON.parse(result.stdout) as {
      skills: Array<{ name: string; status: string; path: string }>;
      diagnostics: unknown[];
    };
    expect(listing.skills.map((row) => [row.name, row.status, row.path])).toEqual([
      [
        "deploy-checklist",
        "ok",
        join(fixture.project, "node_modules/@acme/skills-pack/skills/deploy-checklist/SKILL.md"),
      ],
      ["release-notes", "ok", join(fixture.project, "node_modules/@acme/skills-pack/skills/release-notes/SKILL.md")],
      ["root-skill-pkg", "ok", join(fixture.project, "node_modules/root-skill-pkg/SKILL.md")],
    ]);
    expect(listing.diagnostics).toEqual([]);
  });

  it("list npm:@scope/pkg lists that package's skills only, and a folder and a package mix", async () => {
    const scoped = await cli("list", "npm:@acme/skills-pack", "--json");
    expect((JSON.parse(scoped.stdout) as { skills: Array<{ name: string }> }).skills.map((row) => row.name)).toEqual([
      "deploy-checklist",
      "release-notes",
    ]);
    const mixed = await cli("list", "node_modules/root-skill-pkg", "npm:@acme/skills-pack");
    expect(mixed.code).toBe(0);
    expect(mixed.stdout).toContain("3 skills available");
  });

  it("info shows the package and version a skill came in", async () => {
    const result = await cli("info", "deploy-checklist", "npm:");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Source:           npm:${join(fixture.project, "package.json")}\n`);
    expect(result.stdout).toContain("Package:          @acme/skills-pack@1.4.0\n");
    expect(result.stdout).toContain("references/checks.md");
    const json = JSON.parse((await cli("info", "root-skill-pkg", "npm:root-skill-pkg", "--json")).stdout) as {
      skill: { package: unknown };
    };
    expect(json.skill.package).toEqual({ name: "root-skill-pkg", version: "0.2.0" });
  });

  it("render, search and prompt read skills from npm: sources", async () => {
    const rendered = await cli("render", "deploy-checklist", "npm:@acme/skills-pack", "--args", "2.1.0");
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain("Deploy version 2.1.0 after the checks in references/checks.md.");
    const found = await cli("search", "release notes", "npm:", "--json");
    expect(found.code).toBe(0);
    expect((JSON.parse(found.stdout) as { results: Array<{ name: string }> }).results[0]!.name).toBe("release-notes");
    const prompt = await cli("prompt", "npm:");
    expect(prompt.code).toBe(0);
    for (const name of ["deploy-checklist", "release-notes", "root-skill-pkg"]) expect(prompt.stdout).toContain(name);
  });

  it("a package named on the command line that is not installed fails with package-not-found, and lists no row", async () => {
    const message = `Package '@acme/not-there' is not installed: no node_modules/@acme/not-there at or above ${fixture.project}. Run npm install @acme/not-there`;
    expect(await cli("list", "npm:@acme/not-there")).toEqual({ code: 1, stdout: "", stderr: `skillset: ${message}\n` });
    const mixed = await cli("list", "npm:@acme/not-there", "npm:@acme/skills-pack", "--json");
    expect(mixed.code).toBe(1);
    expect(JSON.parse(mixed.stdout)).toEqual({ error: { code: "package-not-found", message } });
  });

  it("a package the skills field names that is not installed is a diagnostic, not a made-up skipped row", async () => {
    const project = fixture.project;
    const manifest = join(project, "package.json");
    const original = readFileSync(manifest, "utf8");
    writeFileSync(
      manifest,
      JSON.stringify({ ...JSON.parse(original), skills: ["npm:@acme/not-there", "npm:@acme/skills-pack"] }),
    );
    try {
      const result = await cli("list", "npm:", "--json");
      expect(result.code).toBe(0);
      const json = JSON.parse(result.stdout) as {
        skills: Array<{ status: string; path: string }>;
        diagnostics: Array<{ code: string; file: string }>;
      };
      expect(json.skills.map((skill) => skill.status)).toEqual(["ok", "ok"]);
      expect(json.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.file}`)).toEqual([
        `package-not-installed ${manifest}`,
      ]);
    } finally {
      writeFileSync(manifest, original);
    }
  });

  it("mcp npm: serves the packages' skills to an MCP client", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "npm:"],
      cwd: fixture.project,
      env: { ...process.env, HOME: home } as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client({ name: "skillset-npm-test", version: "1" });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toContain("- deploy-checklist: Checklist for deploying a release.");
      const loaded = await client.callTool({
        name: "load_skill",
        arguments: { skill_name: "deploy-checklist", arguments: "3.0.0" },
      });
      const text = (loaded.content as Array<{ type: string; text: string }>).map((block) => block.text).join("");
      expect(loaded.isError).toBeFalsy();
      expect(text).toContain("Deploy version 3.0.0 after the checks in references/checks.md.");
      expect(text).toContain("- [reference] references/checks.md");
    } finally {
      await client.close();
    }
  });
});
