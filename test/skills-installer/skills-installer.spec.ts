// The layouts the real `skills` CLI (Vercel's installer, npm `skills`, pinned in package.json)
// makes, and skillset reading them: each skill is found once, by the CLI (`dist/cli/main.js list
// --json`) and by `createSkillsMiddleware` in a real `createAgent` loop. Everything is offline in
// temp folders: the skills come from a local folder and from a packed local npm package, HOME is
// a temp folder (the installer never touches the real one) and telemetry is off.
//
// Named *.spec.ts so that the main suite (Node 20) leaves it out; `npm test --prefix
// test/skills-installer` runs it under this folder's Node 22. Without the installed `skills`
// package it skips with a notice, except under CI=true, where it fails.
import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillsLogEntry } from "../../src/index.js";
import { createSkillsMiddleware } from "../../src/langchain.js";
import { digestSkillFolder } from "../../src/node.js";
import { load, runAgent, scriptedModel, systemPromptOf, toolResults } from "../langchain/helpers.js";
import {
  installerEnv,
  installerInstalled as installed,
  NODE_22,
  requireBuiltSkillset,
  SKILLS_CLI,
  SKILLSET_CLI,
  SUITE_FOLDER as HERE,
} from "./installer-harness.js";

let base: string;
let home: string;
let project: string;

const env = (): NodeJS.ProcessEnv => installerEnv(base, home);

/** Runs the `skills` CLI in the project under Node 22; throws with its output when it fails. */
function skills(...args: string[]): string {
  const result = spawnSync(NODE_22, [SKILLS_CLI, ...args], {
    cwd: project,
    env: env(),
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`skills ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** A skill folder of the local source the installer copies from. */
function sourceSkill(folder: string, name: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "SKILL.md"),
    `---\nname: ${name}\ndescription: Use ${name} for tests.\n---\n\n# ${name}\n\nBODY-OF-${name}\n`,
  );
}

/** What a path is: "dir", "file", or "link -> <target as written>". */
function kind(path: string): string {
  const stat = lstatSync(path);
  return stat.isSymbolicLink() ? `link -> ${readlinkSync(path)}` : stat.isDirectory() ? "dir" : "file";
}

interface Listing {
  skills: Array<{ name: string; status: string; path: string }>;
  diagnostics: Array<{ severity: string; code: string; file: string }>;
}

function skillsetList(cwd: string, ...args: string[]): Listing {
  return JSON.parse(
    execFileSync(process.execPath, [SKILLSET_CLI, "list", "--json", ...args], { cwd, env: env(), encoding: "utf8" }),
  ) as Listing;
}

beforeAll(() => {
  if (!installed) return;
  requireBuiltSkillset();
  base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-installer-")));
  home = join(base, "home");
  project = join(base, "project");
  mkdirSync(home);
  mkdirSync(project);
  // The local collection the installer reads.
  for (const name of ["my-skill", "other", "global-one"]) sourceSkill(join(base, "collection", name), name);
  // An npm package that ships a skill in skills/<name>/, packed and installed from its tarball.
  sourceSkill(join(base, "pkg/skills/pkg-helper"), "pkg-helper");
  writeFileSync(
    join(base, "pkg/package.json"),
    JSON.stringify({ name: "pkgskills", version: "1.0.0", files: ["skills"] }),
  );
  execFileSync("npm", ["pack", "--silent"], { cwd: join(base, "pkg"), env: env(), encoding: "utf8" });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
  execFileSync(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--silent", join(base, "pkg/pkgskills-1.0.0.tgz")],
    { cwd: project, env: env(), encoding: "utf8" },
  );

  // Copy mode, one agent: an independent copy in .claude/skills.
  skills("add", join(base, "collection"), "--skill", "my-skill", "--agent", "claude-code", "--copy", "--yes");
  // Symlink mode, two agents: the canonical copy in .agents/skills (Codex's own folder), Claude Code's folder linked to it.
  skills("add", join(base, "collection"), "--skill", "other", "--agent", "claude-code", "codex", "--yes");
  // Global symlink mode: the same in the (temp) home folder.
  skills(
    "add",
    join(base, "collection"),
    "--skill",
    "global-one",
    "--agent",
    "claude-code",
    "codex",
    "--global",
    "--yes",
  );
  // Skills of npm dependencies, linked from node_modules.
  skills("experimental_sync", "--agent", "claude-code", "--yes");
}, 300_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!installed)("layouts made by the skills CLI", () => {
  it("are made by skills 1.7.4 under Node 22", () => {
    expect(
      (JSON.parse(readFileSync(join(HERE, "node_modules/skills/package.json"), "utf8")) as { version: string }).version,
    ).toBe("1.7.4");
    const [major, minor] = execFileSync(NODE_22, ["--version"], { encoding: "utf8" })
      .trim()
      .slice(1)
      .split(".")
      .map(Number);
    expect(major! > 22 || (major === 22 && minor! >= 20), `Node ${major}.${minor}`).toBe(true);
  });

  it("are what skillset has to read: copies, links to .agents/skills, links into node_modules, a lock file", () => {
    expect(
      Object.fromEntries(
        [
          ".claude/skills/my-skill",
          ".claude/skills/other",
          ".claude/skills/pkg-helper",
          ".agents/skills/other",
          ".agents/skills/pkg-helper",
          "node_modules/pkgskills/skills/pkg-helper",
        ].map((path) => [path, kind(join(project, path))]),
      ),
    ).toEqual({
      ".claude/skills/my-skill": "dir",
      ".claude/skills/other": "link -> ../../.agents/skills/other",
      ".claude/skills/pkg-helper": "link -> ../../.agents/skills/pkg-helper",
      ".agents/skills/other": "dir",
      ".agents/skills/pkg-helper": "link -> ../../node_modules/pkgskills/skills/pkg-helper",
      "node_modules/pkgskills/skills/pkg-helper": "dir",
    });
    expect([kind(join(home, ".claude/skills/global-one")), kind(join(home, ".agents/skills/global-one"))]).toEqual([
      "link -> ../../.agents/skills/global-one",
      "dir",
    ]);
    // skills-lock.json records where each project skill came from, and a hash of its folder.
    const lock = JSON.parse(readFileSync(join(project, "skills-lock.json"), "utf8")) as {
      version: number;
      skills: Record<string, { sourceType: string; computedHash: string }>;
    };
    expect(lock.version).toBe(1);
    expect(Object.fromEntries(Object.entries(lock.skills).map(([name, entry]) => [name, entry.sourceType]))).toEqual({
      "my-skill": "local",
      other: "local",
      "pkg-helper": "node_modules",
    });
    for (const entry of Object.values(lock.skills)) expect(entry.computedHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("skillset list finds each skill once, from the project and from a folder below it", () => {
    const expected = [
      ["global-one", "ok", join(home, ".agents/skills/global-one/SKILL.md")],
      ["my-skill", "ok", join(project, ".claude/skills/my-skill/SKILL.md")],
      ["other", "ok", join(project, ".agents/skills/other/SKILL.md")],
      ["pkg-helper", "ok", join(project, ".agents/skills/pkg-helper/SKILL.md")],
    ];
    mkdirSync(join(project, "src/deep"), { recursive: true });
    for (const cwd of [project, join(project, "src/deep")]) {
      const listing = skillsetList(cwd);
      expect(listing.skills.map((row) => [row.name, row.status, row.path])).toEqual(expected);
      // The other paths to the same skills are named as such, and nothing else is reported.
      expect(listing.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
        ["same-skill", join(home, ".claude/skills/global-one/SKILL.md")],
        ["same-skill", join(project, ".claude/skills/other/SKILL.md")],
        ["same-skill", join(project, ".claude/skills/pkg-helper/SKILL.md")],
      ]);
    }
    // One agent's folder alone sees its linked skills too.
    expect(skillsetList(project, ".claude/skills").skills.map((row) => [row.name, row.status])).toEqual([
      ["my-skill", "ok"],
      ["other", "ok"],
      ["pkg-helper", "ok"],
    ]);
  });

  it.each([
    ["one agent's folder", [".claude/skills"]],
    ["both project folders", [".claude/skills", ".agents/skills"]],
  ])("createSkillsMiddleware over %s offers and loads every skill, each once", async (_label, folders) => {
    const middleware = createSkillsMiddleware({ sources: folders.map((folder) => join(project, folder)) });
    const model = scriptedModel([[load("my-skill"), load("other"), load("pkg-helper")]]);
    const { result } = await runAgent({ middleware: [middleware], model });
    const catalog = systemPromptOf(model, 0)
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2, line.indexOf(":")));
    expect(catalog).toEqual(["my-skill", "other", "pkg-helper"]);
    const results = toolResults(result.messages);
    for (const name of ["my-skill", "other", "pkg-helper"]) {
      const loaded = results.get(`load-${name}`)!;
      expect(loaded.status, loaded.content).not.toBe("error");
      expect(loaded.content).toContain(`BODY-OF-${name}`);
    }
    expect(result.skillsLoaded.sort()).toEqual(["my-skill", "other", "pkg-helper"]);
  });

  it("skillset computes the computedHash the CLI wrote for every entry: copies, links, node_modules", () => {
    const lock = JSON.parse(readFileSync(join(project, "skills-lock.json"), "utf8")) as {
      skills: Record<string, { computedHash: string }>;
    };
    const installed = {
      "my-skill": ".claude/skills/my-skill",
      other: ".agents/skills/other",
      "pkg-helper": ".agents/skills/pkg-helper",
    };
    expect(
      Object.fromEntries(
        Object.entries(installed).map(([name, path]) => [name, digestSkillFolder(join(project, path)).hash]),
      ),
    ).toEqual(Object.fromEntries(Object.entries(lock.skills).map(([name, entry]) => [name, entry.computedHash])));
  });

  // Last: it changes an installed file.
  it("skillset verify agrees; one changed byte is caught by verify and by a refusing middleware, naming the skill", async () => {
    const verify = () =>
      spawnSync(process.execPath, [SKILLSET_CLI, "verify", "--json"], { cwd: project, env: env(), encoding: "utf8" });
    const clean = verify();
    expect(clean.status, clean.stdout + clean.stderr).toBe(0);
    expect(
      (JSON.parse(clean.stdout) as { skills: Array<{ name: string; status: string }> }).skills.map((skill) => [
        skill.name,
        skill.status,
      ]),
    ).toEqual([
      ["my-skill", "ok"],
      ["other", "ok"],
      ["pkg-helper", "ok"],
    ]);

    appendFileSync(join(project, ".agents/skills/other/SKILL.md"), "x");
    const changed = verify();
    expect(changed.status).toBe(1);
    const report = JSON.parse(changed.stdout) as {
      skills: Array<{ name: string; status: string; installed: Array<{ files?: { changed: string[] } }> }>;
    };
    expect(report.skills.map((skill) => [skill.name, skill.status])).toEqual([
      ["my-skill", "ok"],
      ["other", "modified"],
      ["pkg-helper", "ok"],
    ]);
    // The local source still has the locked hash, so the changed file can be named.
    expect(report.skills[1]!.installed[0]!.files).toEqual({ changed: ["SKILL.md"], added: [], removed: [] });

    const events: SkillsLogEntry[] = [];
    const middleware = createSkillsMiddleware({
      sources: [join(project, ".claude/skills"), join(project, ".agents/skills")],
      lockfile: { path: join(project, "skills-lock.json"), mode: "refuse" },
      logger: (entry) => events.push(entry),
    });
    const { result } = await runAgent({
      middleware: [middleware],
      model: scriptedModel([[load("my-skill"), load("other")]]),
    });
    const results = toolResults(result.messages);
    expect(results.get("load-other")!.content).toMatch(
      /^Error: Skill 'other' is refused: its files differ from .*skills-lock\.json \(SKILL\.md changed\)/,
    );
    expect(result.skillsLoaded).toEqual(["my-skill"]);
    expect(
      events.filter((entry) => entry.event === "skill_unverified").map((entry) => [entry.skill, entry.refused]),
    ).toEqual([["other", true]]);
  });
});
