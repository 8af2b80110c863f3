import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, npmProject, skillFile, writeFiles, type FixturePackage } from "../../test/helpers/npm-project.js";
import { createNpmSource } from "./npm-source.js";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const PACKAGES: FixturePackage[] = [
  {
    manifest: { name: "skill-pkg-a", version: "1.2.3" },
    files: {
      "skills/alpha/SKILL.md": skillFile("alpha"),
      "skills/beta/SKILL.md": skillFile("beta"),
      "skills/beta/notes.md": "beta notes\n",
    },
  },
  // `exports` hides package.json from require: the source finds the package root all the same.
  {
    manifest: { name: "@acme/tools", version: "0.4.0", exports: { ".": "./index.js" }, skills: ["npm:skill-pkg-root"] },
    files: {
      "index.js": "export {};\n",
      "dist/skills/gamma/SKILL.md": skillFile("gamma"),
      "dist/skills/delta/SKILL.md": skillFile("delta"),
    },
  },
  // A root SKILL.md makes the package one skill: its skills/ folder is not read.
  {
    manifest: { name: "skill-pkg-root", version: "2.0.0" },
    files: { "SKILL.md": skillFile("root-skill"), "skills/ignored/SKILL.md": skillFile("ignored") },
  },
  { manifest: { name: "no-skills-pkg", version: "1.0.0" }, files: { "index.js": "" } },
  {
    manifest: { name: "bad-skill-pkg", version: "3.1.0" },
    files: { "skills/broken/SKILL.md": "---\nname: broken\n---\n\nNo description.\n" },
  },
];

const SKILLS_FIELD = [
  "npm:skill-pkg-a",
  { source: "npm:@acme/tools", skills: ["gamma"] },
  "npm:no-skills-pkg",
  "npm:not-installed",
  "github:owner/repo",
  "npm:bad-skill-pkg",
];

let fixture: ReturnType<typeof npmProject>;
beforeAll(() => {
  fixture = npmProject(PACKAGES, { skills: SKILLS_FIELD });
}, 120_000);
afterAll(() => fixture.cleanup());

describe("createNpmSource over packages installed with npm", () => {
  it("npm: reads the packages the project's skills field names, then those a package's own field names, with name and version", async () => {
    const source = createNpmSource({ cwd: fixture.project, watch: false });
    const scan = await source.scan();
    expect(source.id).toBe(`npm:${join(fixture.project, "package.json")}`);
    expect(scan.skills.map((skill) => [skill.name, skill.package, skill.source])).toEqual([
      ["alpha", { name: "skill-pkg-a", version: "1.2.3" }, source.id],
      ["beta", { name: "skill-pkg-a", version: "1.2.3" }, source.id],
      // Only gamma: the entry chose it; delta is left out.
      ["gamma", { name: "@acme/tools", version: "0.4.0" }, source.id],
      ["root-skill", { name: "skill-pkg-root", version: "2.0.0" }, source.id],
    ]);
    expect(scan.skills.map((skill) => skill.path)).toEqual([
      join(fixture.project, "node_modules/skill-pkg-a/skills/alpha/SKILL.md"),
      join(fixture.project, "node_modules/skill-pkg-a/skills/beta/SKILL.md"),
      join(fixture.project, "node_modules/@acme/tools/dist/skills/gamma/SKILL.md"),
      join(fixture.project, "node_modules/skill-pkg-root/SKILL.md"),
    ]);
    source.close?.();
  });

  it("npm: names every entry it cannot read: not npm:, not installed, without skills, with an invalid skill", async () => {
    const source = createNpmSource({ cwd: fixture.project, watch: false });
    const { diagnostics } = await source.scan();
    const manifest = join(fixture.project, "package.json");
    const modules = join(fixture.project, "node_modules");
    expect(diagnostics.map(({ severity, code, file, message }) => ({ severity, code, file, message }))).toEqual([
      {
        severity: "warning",
        code: "skills-field-entry",
        file: manifest,
        message: `"skills" entry "github:owner/repo" is not an npm: source; skillset reads installed packages only (fetch other sources with npx skills experimental_sync)`,
      },
      {
        severity: "error",
        code: "package-not-installed",
        file: manifest,
        message: `Package 'not-installed' is not installed: no node_modules/not-installed at or above ${fixture.project}. Run npm install not-installed`,
      },
      {
        severity: "warning",
        code: "package-without-skills",
        file: join(modules, "no-skills-pkg/package.json"),
        message: `Package 'no-skills-pkg' (${join(modules, "no-skills-pkg")}) has no skills: no SKILL.md at its root and no skills/<name>/SKILL.md or dist/skills/<name>/SKILL.md`,
      },
      expect.objectContaining({ severity: "error", file: join(modules, "bad-skill-pkg/skills/broken/SKILL.md") }),
      {
        severity: "warning",
        code: "package-without-skills",
        file: join(modules, "bad-skill-pkg/package.json"),
        message: `Package 'bad-skill-pkg' (${join(modules, "bad-skill-pkg")}) has no valid skills in ${join(modules, "bad-skill-pkg/skills")}`,
      },
      // A root SKILL.md's folder is named after the package: the validator's warning, and it loads.
      {
        severity: "warning",
        code: "spec",
        file: join(modules, "skill-pkg-root/SKILL.md"),
        message: "Directory name 'skill-pkg-root' must match skill name 'root-skill'",
      },
    ]);
    // The invalid skill gets the validator's own diagnostic.
    expect(diagnostics[3]!.message).toContain("description");
    source.close?.();
  });

  it("named packages are read whatever the project's skills field says, with those their own field names, and reads go to the package's files", async () => {
    const source = createNpmSource({ packages: ["@acme/tools", "skill-pkg-a"], cwd: fixture.project, watch: false });
    const scan = await source.scan();
    expect(source.id).toBe("npm:@acme/tools,skill-pkg-a");
    expect(scan.skills.map((skill) => `${skill.package!.name}@${skill.package!.version}/${skill.name}`)).toEqual([
      "@acme/tools@0.4.0/delta",
      "@acme/tools@0.4.0/gamma",
      "skill-pkg-a@1.2.3/alpha",
      "skill-pkg-a@1.2.3/beta",
      "skill-pkg-root@2.0.0/root-skill",
    ]);
    expect(scan.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      "Directory name 'skill-pkg-root' must match skill name 'root-skill'",
    ]);
    const beta = scan.skills.find((skill) => skill.name === "beta")!;
    expect(decode(await source.readSkill(beta))).toBe(skillFile("beta"));
    expect(decode(await source.readFile!(beta, "notes.md", 1000))).toBe("beta notes\n");
    const listing = await source.listFiles(beta, { maxDepth: 2, maxFiles: 10 });
    expect(listing.files.map((file) => file.relativePath).sort()).toEqual(["notes.md"]);
    source.close?.();
  });

  it("a package that is not installed names itself and the command that installs it", async () => {
    const source = createNpmSource({ packages: ["@acme/missing"], cwd: fixture.project, watch: false });
    const scan = await source.scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      [
        "package-not-installed",
        `Package '@acme/missing' is not installed: no node_modules/@acme/missing at or above ${fixture.project}. Run npm install @acme/missing`,
      ],
    ]);
  });

  it("resolves from a subfolder of the project as require would, through the node_modules above it", async () => {
    const sub = join(fixture.project, "src/deep");
    mkdirSync(sub, { recursive: true });
    const scan = await createNpmSource({ packages: ["skill-pkg-root"], cwd: sub, watch: false }).scan();
    expect(scan.skills.map((skill) => [skill.name, skill.path])).toEqual([
      ["root-skill", join(fixture.project, "node_modules/skill-pkg-root/SKILL.md")],
    ]);
  });

  it("keeps its scan while nothing changed, and sees a package uninstalled and installed again", async () => {
    const source = createNpmSource({ packages: ["skill-pkg-root"], cwd: fixture.project, watch: false });
    const first = await source.scan();
    expect(await source.scan()).toBe(first);
    npm(fixture.project, "uninstall", "skill-pkg-root", "--offline", "--no-audit", "--no-fund");
    const gone = await source.scan();
    expect(gone.version).not.toBe(first.version);
    expect(gone.skills).toEqual([]);
    expect(gone.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["package-not-installed"]);
    npm(fixture.project, "install", fixture.tarballs["skill-pkg-root"]!, "--offline", "--no-audit", "--no-fund");
    expect((await source.scan()).skills.map((skill) => skill.name)).toEqual(["root-skill"]);
    source.close?.();
  });
});

describe("createNpmSource over workspaces and pnpm's layout", () => {
  it("an npm workspace reads a sibling package linked into the root's node_modules, from the member's folder", async () => {
    const workspace = npmProject([], { workspaces: ["packages/*"] });
    try {
      writeFiles(join(workspace.project, "packages/app"), {
        "package.json": JSON.stringify({ name: "app", version: "0.0.1", skills: ["npm:@ws/lib"] }),
      });
      writeFiles(join(workspace.project, "packages/lib"), {
        "package.json": JSON.stringify({ name: "@ws/lib", version: "5.0.0" }),
        "skills/lib-skill/SKILL.md": skillFile("lib-skill"),
      });
      npm(workspace.project, "install", "--offline", "--no-audit", "--no-fund");
      const scan = await createNpmSource({ cwd: join(workspace.project, "packages/app"), watch: false }).scan();
      expect(scan.diagnostics).toEqual([]);
      expect(scan.skills.map((skill) => [skill.name, skill.package, skill.path])).toEqual([
        [
          "lib-skill",
          { name: "@ws/lib", version: "5.0.0" },
          join(workspace.project, "node_modules/@ws/lib/skills/lib-skill/SKILL.md"),
        ],
      ]);
    } finally {
      workspace.cleanup();
    }
  }, 60_000);

  it("pnpm's links into node_modules/.pnpm stay inside the project and are followed", async () => {
    const tree = npmProject([], {});
    try {
      const store = join(tree.project, "node_modules/.pnpm/@acme+pn@1.0.0/node_modules/@acme/pn");
      writeFiles(store, {
        "package.json": JSON.stringify({ name: "@acme/pn", version: "1.0.0" }),
        "skills/pn-skill/SKILL.md": skillFile("pn-skill"),
      });
      mkdirSync(join(tree.project, "node_modules/@acme"), { recursive: true });
      symlinkSync("../.pnpm/@acme+pn@1.0.0/node_modules/@acme/pn", join(tree.project, "node_modules/@acme/pn"));
      const scan = await createNpmSource({ packages: ["@acme/pn"], cwd: tree.project, watch: false }).scan();
      expect(scan.diagnostics).toEqual([]);
      expect(scan.skills.map((skill) => [skill.name, skill.package])).toEqual([
        ["pn-skill", { name: "@acme/pn", version: "1.0.0" }],
      ]);
    } finally {
      tree.cleanup();
    }
  });
});
