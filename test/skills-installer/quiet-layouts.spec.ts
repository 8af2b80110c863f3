// The real `skills` CLI's own layouts are one skill each, and quietly so: a skill installed for
// two agents as copies (`--copy`: the same bytes in .claude/skills and .agents/skills, one
// lockfile entry) or as a link (.claude/skills/<name> → .agents/skills/<name>) is listed once,
// with no diagnostic on `skillset list`, and `skillset doctor --fail-on warning` passes on the
// clean install. test/cli/installer-layouts.test.ts reads a recording of these layouts under Node 20.
// Run under Node 22 with the other installer tests (see skills-installer.spec.ts).
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  installerEnv,
  installerInstalled as installed,
  NODE_22,
  requireBuiltSkillset,
  SKILLS_CLI,
  SKILLSET_CLI,
} from "./installer-harness.js";

let base: string;
let home: string;
let project: string;

const env = (): NodeJS.ProcessEnv => installerEnv(base, home);

function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(command, args, { cwd: project, env: env(), encoding: "utf8", timeout: 60_000 });
}

function skills(...args: string[]): void {
  const result = run(NODE_22, [SKILLS_CLI, ...args]);
  if (result.status !== 0)
    throw new Error(`skills ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
}

beforeAll(() => {
  if (!installed) return;
  requireBuiltSkillset();
  base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-installer-quiet-")));
  home = join(base, "home");
  project = join(base, "project");
  mkdirSync(home);
  mkdirSync(project);
  for (const name of ["copied", "linked"]) {
    mkdirSync(join(base, "collection", name, "scripts"), { recursive: true });
    writeFileSync(
      join(base, "collection", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: Formats notes. Use when asked for ${name} notes.\n---\n\n# ${name}\n\nRun scripts/run.sh.\n`,
    );
    writeFileSync(join(base, "collection", name, "scripts", "run.sh"), "echo ok\n");
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
  const collection = join(base, "collection");
  skills("add", collection, "--skill", "copied", "--agent", "claude-code", "codex", "--copy", "--yes");
  skills("add", collection, "--skill", "linked", "--agent", "claude-code", "codex", "--yes");
}, 300_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!installed)("the skills CLI's layouts, read quietly", () => {
  it("are two copies of one skill and a link to one skill", () => {
    const kind = (path: string) => {
      const stat = lstatSync(join(project, path));
      return stat.isSymbolicLink()
        ? `link -> ${readlinkSync(join(project, path))}`
        : stat.isDirectory()
          ? "dir"
          : "file";
    };
    expect(
      Object.fromEntries(
        [".claude/skills/copied", ".agents/skills/copied", ".claude/skills/linked", ".agents/skills/linked"].map(
          (path) => [path, kind(path)],
        ),
      ),
    ).toEqual({
      ".claude/skills/copied": "dir",
      ".agents/skills/copied": "dir",
      ".claude/skills/linked": "link -> ../../.agents/skills/linked",
      ".agents/skills/linked": "dir",
    });
  });

  it("skillset list shows each skill once and no diagnostic", () => {
    const list = run(process.execPath, [SKILLSET_CLI, "list"]);
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    expect(list.stdout.replace(/ +\n/g, "\n")).toBe(
      [
        "NAME    STATUS    PATH                   DESCRIPTION",
        "copied  ok        .agents/skills/copied  Formats notes. Use when asked for copied notes.",
        "linked  ok        .agents/skills/linked  Formats notes. Use when asked for linked notes.",
        "",
        "2 skills available (0 with warnings); 0 shadowed, 0 skipped",
        "",
      ].join("\n"),
    );
  });

  it("skillset doctor --fail-on warning passes on the clean install", () => {
    const doctor = run(process.execPath, [SKILLSET_CLI, "doctor", "--fail-on", "warning", "--no-threads", "--json"]);
    const report = JSON.parse(doctor.stdout) as { skills: number; findings: Array<{ code: string }> };
    expect(report.findings.map((finding) => finding.code)).toEqual([]);
    expect(report.skills).toBe(2);
    expect(doctor.status).toBe(0);
  });
});
