// The built CLI over the layouts skill installers make: the `skills` CLI keeps one copy in
// `.agents/skills/<name>` and links each agent's folder to it, and links skills shipped in npm
// packages from `node_modules`. Links inside the project or the user's skills folders are
// followed; one skill reached twice is listed once; links anywhere else, dangling links and
// loops are skipped, named and counted. (test/skills-installer/ makes the same layouts with the
// real `skills` CLI.)
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { useTempFolders } from "../helpers/skill-tree.js";
import { skillAt as skill } from "./helpers.js";

// Real paths: the CLI reports them so, and the temp folder may be behind a link (macOS's /var).
const tempFolder = useTempFolders("skillset-links-");
const folder = () => realpathSync(tempFolder());
const cli = (args: string[], { cwd, home }: { cwd: string; home: string }) =>
  runCli(args, { cwd, env: { HOME: home } });

function link(path: string, target: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

interface Row {
  name: string | null;
  path: string;
  status: string;
}
interface Listing {
  skills: Row[];
  diagnostics: Array<{ severity: string; code: string; file: string; message: string }>;
}

/**
 * A project as `skills add -a claude-code -a codex` and `skills experimental_sync` leave it:
 * `my-skill` copied into .claude/skills, `other` canonical in .agents/skills and linked from
 * .claude/skills, `pkg-helper` shipped in node_modules and linked from both.
 */
function installedProject() {
  const home = folder();
  const project = join(folder(), "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), '{ "name": "project", "private": true }\n');
  skill(join(project, ".claude/skills/my-skill"));
  skill(join(project, ".agents/skills/other"));
  link(join(project, ".claude/skills/other"), "../../.agents/skills/other");
  skill(join(project, "node_modules/pkgskills/skills/pkg-helper"));
  link(join(project, ".agents/skills/pkg-helper"), "../../node_modules/pkgskills/skills/pkg-helper");
  link(join(project, ".claude/skills/pkg-helper"), "../../.agents/skills/pkg-helper");
  return { home, project };
}

const sameSkill = (project: string, name: string, real: string) => ({
  severity: "info",
  code: "same-skill",
  file: join(project, ".claude/skills", name, "SKILL.md"),
  message: `Skill '${name}' is the same skill as ${join(project, ".agents/skills", name, "SKILL.md")} from local:${join(project, ".agents/skills")} (both are ${real}); listed once`,
});

describe("skillset over an installer's links", () => {
  it("list finds each skill once, from the project root and from any folder below it", async () => {
    const { home, project } = installedProject();
    mkdirSync(join(project, "src/deeper"), { recursive: true });
    for (const cwd of [project, join(project, "src/deeper")]) {
      const listed = await cli(["list", "--json"], { cwd, home });
      expect(listed.code, listed.stderr).toBe(0);
      const listing = JSON.parse(listed.stdout) as Listing;
      expect(listing.skills.map((row) => [row.name, row.status, row.path])).toEqual([
        ["my-skill", "ok", join(project, ".claude/skills/my-skill/SKILL.md")],
        ["other", "ok", join(project, ".agents/skills/other/SKILL.md")],
        ["pkg-helper", "ok", join(project, ".agents/skills/pkg-helper/SKILL.md")],
      ]);
      expect(
        listing.diagnostics.map(({ severity, code, file, message }) => ({ severity, code, file, message })),
      ).toEqual([
        sameSkill(project, "other", join(project, ".agents/skills/other/SKILL.md")),
        sameSkill(project, "pkg-helper", join(project, "node_modules/pkgskills/skills/pkg-helper/SKILL.md")),
      ]);
    }
    const text = await cli(["list"], { cwd: project, home });
    expect(text.stdout).toContain("\n3 skills available (0 with warnings); 0 shadowed, 0 skipped\n");
  });

  it("a source that is one agent's folder sees the linked skills too", async () => {
    const { home, project } = installedProject();
    const listed = await cli(["list", "--json", ".claude/skills"], { cwd: project, home });
    expect((JSON.parse(listed.stdout) as Listing).skills.map((row) => [row.name, row.status, row.path])).toEqual([
      ["my-skill", "ok", join(project, ".claude/skills/my-skill/SKILL.md")],
      ["other", "ok", join(project, ".claude/skills/other/SKILL.md")],
      ["pkg-helper", "ok", join(project, ".claude/skills/pkg-helper/SKILL.md")],
    ]);
    const validated = await cli(["validate", "--recursive", "--json", ".claude/skills"], { cwd: project, home });
    expect(validated.code, validated.stdout).toBe(0);
    expect(
      (JSON.parse(validated.stdout) as { skills: Array<{ path: string }> }).skills.map((report) => report.path),
    ).toEqual([".claude/skills/my-skill", ".claude/skills/other", ".claude/skills/pkg-helper"]);
  });

  it("info shows the path the user sees and the link's target, in text and JSON", async () => {
    const { home, project } = installedProject();
    const info = await cli(["info", "pkg-helper", "--json"], { cwd: project, home });
    expect(info.code, info.stderr).toBe(0);
    const { skill: shown } = JSON.parse(info.stdout) as { skill: { path: string; realPath?: string } };
    expect([shown.path, shown.realPath]).toEqual([
      join(project, ".agents/skills/pkg-helper/SKILL.md"),
      join(project, "node_modules/pkgskills/skills/pkg-helper/SKILL.md"),
    ]);
    const text = await cli(["info", "pkg-helper"], { cwd: project, home });
    expect(text.stdout).toContain(
      `\nPath:             ${join(project, ".agents/skills/pkg-helper/SKILL.md")}\nLink target:      ${join(project, "node_modules/pkgskills/skills/pkg-helper/SKILL.md")}\n`,
    );
    // A skill that is no link has no target.
    const plain = JSON.parse((await cli(["info", "my-skill", "--json"], { cwd: project, home })).stdout) as {
      skill: Record<string, unknown>;
    };
    expect("realPath" in plain.skill).toBe(false);
  });

  it("a project skill linked to the user's ~/.agents/skills loads, and is listed once with the user's copy", async () => {
    const { home, project } = installedProject();
    skill(join(home, ".agents/skills/personal"));
    link(join(project, ".claude/skills/personal"), join(home, ".agents/skills/personal"));
    const listing = JSON.parse((await cli(["list", "--json"], { cwd: project, home })).stdout) as Listing;
    // The project's link is the later source, so it is listed; the user's copy is the same skill.
    expect(listing.skills.filter((row) => row.name === "personal").map((row) => [row.status, row.path])).toEqual([
      ["ok", join(project, ".claude/skills/personal/SKILL.md")],
    ]);
    expect(
      listing.diagnostics
        .filter((diagnostic) => diagnostic.file.includes("personal"))
        .map((diagnostic) => [diagnostic.code, diagnostic.file]),
    ).toEqual([["same-skill", join(home, ".agents/skills/personal/SKILL.md")]]);
  });
});

describe("links skillset does not follow", () => {
  /** The installed project plus links out of it: to another user's skills, to /etc, dangling, a loop. */
  function withLinksOut() {
    const installed = installedProject();
    const { project } = installed;
    const elsewhere = folder();
    skill(join(elsewhere, "skills/stranger"));
    link(join(project, ".claude/skills/stranger"), join(elsewhere, "skills/stranger"));
    link(join(project, ".claude/skills/etc"), "/etc");
    link(join(project, ".claude/skills/gone"), "../../.agents/skills/gone");
    link(join(project, ".claude/skills/loop"), "loop");
    mkdirSync(join(project, ".claude/skills/broken"));
    link(join(project, ".claude/skills/broken/SKILL.md"), "../../../docs/SKILL.md");
    return { ...installed, elsewhere };
  }

  it("list skips each, names why, and counts every one as skipped", async () => {
    const { home, project, elsewhere } = withLinksOut();
    const listed = await cli(["list", "--json", ".claude/skills"], { cwd: project, home });
    const listing = JSON.parse(listed.stdout) as Listing;
    const claude = join(project, ".claude/skills");
    // No frontmatter was read, so no name: the text view names each by its folder.
    expect(listing.skills.filter((row) => row.status === "skipped").map((row) => [row.name, row.path])).toEqual([
      [null, join(claude, "broken/SKILL.md")],
      [null, join(claude, "etc")],
      [null, join(claude, "gone")],
      [null, join(claude, "loop")],
      [null, join(claude, "stranger")],
    ]);
    const messages = listing.skills.flatMap((row) =>
      row.status === "skipped"
        ? (row as Row & { diagnostics: Array<{ message: string }> }).diagnostics.map((d) => d.message)
        : [],
    );
    expect(messages).toEqual([
      `${join(claude, "broken/SKILL.md")} is a symbolic link whose target does not exist (it points to ../../../docs/SKILL.md)`,
      `${join(claude, "etc")} is a symbolic link to /etc, outside the allowed folders; skipped`,
      `${join(claude, "gone")} is a symbolic link whose target does not exist (it points to ../../.agents/skills/gone); skipped`,
      `${join(claude, "loop")} is a symbolic link that leads back to itself (a loop); skipped`,
      `${join(claude, "stranger")} is a symbolic link to ${join(elsewhere, "skills/stranger")}, outside the allowed folders; skipped`,
    ]);
    const text = await cli(["list", ".claude/skills"], { cwd: project, home });
    const table = text.stdout.split("\n").filter((line) => line.includes(" skipped "));
    expect(table.map((line) => line.split(/\s+/).slice(0, 3))).toEqual(
      ["broken", "etc", "gone", "loop", "stranger"].map((name) => [name, "skipped", `.claude/skills/${name}`]),
    );
    expect(text.stdout).toContain("\n3 skills available (0 with warnings); 0 shadowed, 5 skipped\n");
  });

  it("info and validate say a dangling link is one, not that SKILL.md is missing", async () => {
    const { home, project } = withLinksOut();
    const info = await cli(["info", "gone", ".claude/skills"], { cwd: project, home });
    expect(info.code).toBe(1);
    expect(info.stderr).toContain(
      `was skipped: ${join(project, ".claude/skills/gone")}: error: ${join(project, ".claude/skills/gone")} is a symbolic link whose target does not exist`,
    );
    const broken = await cli(["validate", ".claude/skills/broken"], { cwd: project, home });
    expect(broken.code).toBe(1);
    // validate's report (its ✗ lines too) is on stdout.
    expect(broken.stdout).toContain(
      "error: .claude/skills/broken/SKILL.md is a symbolic link whose target does not exist (it points to ../../../docs/SKILL.md)\n",
    );
    const gone = await cli(["validate", ".claude/skills/gone"], { cwd: project, home });
    expect(gone.stdout).toContain(
      "error: .claude/skills/gone is a symbolic link whose target does not exist (it points to ../../.agents/skills/gone)\n",
    );
    // validate --recursive fails each link it does not follow, as list counts it skipped.
    const recursive = JSON.parse(
      (await cli(["validate", "-r", "--json", ".claude/skills"], { cwd: project, home })).stdout,
    ) as { skills: Array<{ path: string; valid: boolean }>; valid: boolean };
    expect(recursive.valid).toBe(false);
    expect(recursive.skills.filter((report) => !report.valid).map((report) => report.path)).toEqual([
      ".claude/skills/broken",
      ".claude/skills/etc",
      ".claude/skills/gone",
      ".claude/skills/loop",
      ".claude/skills/stranger",
    ]);
  });

  it("--allow-root lets a link lead into one more folder, in every command that reads sources", async () => {
    const { home, project, elsewhere } = withLinksOut();
    const allowed = ["--allow-root", join(elsewhere, "skills")];
    const listing = JSON.parse(
      (await cli(["list", "--json", ".claude/skills", ...allowed], { cwd: project, home })).stdout,
    ) as Listing;
    expect(listing.skills.find((row) => row.name === "stranger")?.status).toBe("ok");
    expect((await cli(["info", "stranger", ".claude/skills", ...allowed], { cwd: project, home })).code).toBe(0);
    const validated = JSON.parse(
      (await cli(["validate", "-r", "--json", ".claude/skills", ...allowed], { cwd: project, home })).stdout,
    ) as { skills: Array<{ path: string; valid: boolean }> };
    expect(validated.skills.find((report) => report.path === ".claude/skills/stranger")?.valid).toBe(true);
  });

  it("--allow-root works for prompt and render too, and must name a folder", async () => {
    const { home, project, elsewhere } = withLinksOut();
    const allowed = ["--allow-root", join(elsewhere, "skills")];
    expect((await cli(["prompt", ".claude/skills", ...allowed], { cwd: project, home })).stdout).toContain(
      "- stranger: Use stranger.",
    );
    expect((await cli(["render", "stranger", ".claude/skills", ...allowed], { cwd: project, home })).stdout).toContain(
      "# stranger",
    );
    const missing = await cli(["list", ".claude/skills", "--allow-root", "no-such-folder"], { cwd: project, home });
    expect([missing.code, missing.stderr]).toEqual([1, "skillset: --allow-root: no such folder: no-such-folder\n"]);
  });
});
