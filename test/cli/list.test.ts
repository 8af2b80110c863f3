// `skillset list`: statuses, the table, the default folders, and each skill's place in a budgeted
// catalog.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { skillTree } from "../langchain/helpers.js";
import { fields, largeLibrary, parseJson, useCliRun, writeSkill, type ListJson } from "./helpers.js";

const { tempDir, run } = useCliRun();

/** Two sources: s1 {alpha, dup}, s2 {dup, mismatch-dir (name other-name), nodesc (no description)}. */
function listFixture() {
  const dir = tempDir();
  const s1 = path.join(dir, "s1");
  const s2 = path.join(dir, "s2");
  writeSkill(s1, "alpha", fields("alpha", "Alpha skill."));
  writeSkill(s1, "dup", fields("dup", "Dup from s1."));
  writeSkill(s2, "dup", fields("dup", "Dup from s2."));
  writeSkill(s2, "mismatch-dir", fields("other-name", "Name does not match its folder."));
  writeSkill(s2, "nodesc", ["name: nodesc"]);
  return { s1, s2, file: (source: string, name: string) => path.join(source, name, "SKILL.md") };
}

describe("skillset list", () => {
  it("--json reports ok, warning, shadowed (earlier source) and skipped skills", async () => {
    const { s1, s2, file } = listFixture();

    const result = await run(["list", "--json", s1, s2]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const listing = parseJson<ListJson>(result.stdout);
    expect(Object.keys(listing).sort()).toEqual(["diagnostics", "skills"]);
    for (const row of listing.skills)
      expect(Object.keys(row).sort()).toEqual([
        "catalog",
        "description",
        "diagnostics",
        "name",
        "path",
        "source",
        "status",
      ]);
    expect(listing).toEqual({
      skills: [
        {
          name: "alpha",
          description: "Alpha skill.",
          path: file(s1, "alpha"),
          source: `local:${s1}`,
          status: "ok",
          catalog: "whole",
          diagnostics: [],
        },
        {
          name: "dup",
          description: "Dup from s1.",
          path: file(s1, "dup"),
          source: `local:${s1}`,
          status: "shadowed",
          catalog: null,
          diagnostics: [
            {
              severity: "info",
              code: "shadowed",
              file: file(s1, "dup"),
              skill: "dup",
              source: `local:${s1}`,
              message: `Skill 'dup' is shadowed by ${file(s2, "dup")} from local:${s2}`,
            },
          ],
        },
        {
          name: "dup",
          description: "Dup from s2.",
          path: file(s2, "dup"),
          source: `local:${s2}`,
          status: "ok",
          catalog: "whole",
          diagnostics: [],
        },
        {
          name: "nodesc",
          description: null,
          path: file(s2, "nodesc"),
          source: `local:${s2}`,
          status: "skipped",
          catalog: null,
          diagnostics: [
            {
              severity: "error",
              code: "description-missing",
              file: file(s2, "nodesc"),
              message: "Missing required field in frontmatter: description",
              source: `local:${s2}`,
              skill: "nodesc",
            },
          ],
        },
        {
          name: "other-name",
          description: "Name does not match its folder.",
          path: file(s2, "mismatch-dir"),
          source: `local:${s2}`,
          status: "warning",
          catalog: "whole",
          diagnostics: [
            {
              severity: "warning",
              code: "spec",
              file: file(s2, "mismatch-dir"),
              message: "Directory name 'mismatch-dir' must match skill name 'other-name'",
              source: `local:${s2}`,
              skill: "other-name",
            },
          ],
        },
      ],
      diagnostics: [],
    });
  });

  it("human output has a header line, one row per skill, a summary and a diagnostics section naming each file", async () => {
    const { s1, s2, file } = listFixture();

    const result = await run(["list", s1, s2]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME {4,}STATUS {4}PATH +DESCRIPTION$/);
    // The PATH column is the skill's folder, cut at the start to 50 characters (long temp folders, e.g. on macOS).
    const column = (folder: string) => (folder.length <= 50 ? folder : `…${folder.slice(folder.length - 49)}`);
    const rows = lines.slice(1, 6).map((line) =>
      line
        .split(/\s{2,}/)
        .filter(Boolean)
        .slice(0, 3),
    );
    expect(rows).toEqual([
      ["alpha", "ok", column(path.join(s1, "alpha"))],
      ["dup", "shadowed", column(path.join(s1, "dup"))],
      ["dup", "ok", column(path.join(s2, "dup"))],
      ["nodesc", "skipped", column(path.join(s2, "nodesc"))],
      ["other-name", "warning", column(path.join(s2, "mismatch-dir"))],
    ]);
    expect(lines.slice(6)).toEqual([
      "",
      "3 skills available (1 with warnings); 1 shadowed, 1 skipped",
      "",
      "Diagnostics:",
      `  ${file(s1, "dup")}: info: Skill 'dup' is shadowed by ${file(s2, "dup")} from local:${s2}`,
      `  ${file(s2, "nodesc")}: error: Missing required field in frontmatter: description`,
      `  ${file(s2, "mismatch-dir")}: warning: Directory name 'mismatch-dir' must match skill name 'other-name'`,
      "",
    ]);
  });

  it("a missing folder exits 1 with `No such folder: <path>`", async () => {
    const { s1 } = listFixture();
    const missing = path.join(path.dirname(s1), "does-not-exist");

    const result = await run(["list", s1, missing]);

    expect(result).toEqual({ code: 1, stdout: "", stderr: `skillset: No such folder: ${missing}\n` });
  });

  it("without sources reads the default folders under HOME and cwd; project .agents/skills overrides ~/.claude/skills", async () => {
    const home = tempDir();
    const project = tempDir();
    const userClaude = path.join(home, ".claude", "skills");
    const userAgents = path.join(home, ".agents", "skills");
    const projectClaude = path.join(project, ".claude", "skills");
    const projectAgents = path.join(project, ".agents", "skills");
    writeSkill(userClaude, "shared", fields("shared", "From ~/.claude/skills."));
    writeSkill(userClaude, "user-only", fields("user-only", "Only in ~/.claude/skills."));
    writeSkill(userAgents, "agents-only", fields("agents-only", "Only in ~/.agents/skills."));
    writeSkill(projectClaude, "project-only", fields("project-only", "Only in ./.claude/skills."));
    writeSkill(projectAgents, "shared", fields("shared", "From ./.agents/skills."));

    const result = await run(["list", "--json"], { cwd: project, env: { HOME: home } });

    expect(result.code).toBe(0);
    const listing = parseJson<ListJson>(result.stdout);
    const summary = listing.skills.map(({ name, source, status }) => ({ name, source, status }));
    expect(summary).toEqual(
      expect.arrayContaining([
        { name: "agents-only", source: `local:${userAgents}`, status: "ok" },
        { name: "project-only", source: `local:${projectClaude}`, status: "ok" },
        { name: "shared", source: `local:${projectAgents}`, status: "ok" },
        { name: "shared", source: `local:${userClaude}`, status: "shadowed" },
        { name: "user-only", source: `local:${userClaude}`, status: "ok" },
      ]),
    );
    expect(summary).toHaveLength(5);
    expect(listing.diagnostics).toEqual([]);
    const winner = listing.skills.find((row) => row.name === "shared" && row.status === "ok");
    expect(winner?.description).toBe("From ./.agents/skills.");
  });

  it("without sources and no default folders exits 1 with `No skills folders found`", async () => {
    const home = tempDir();
    const project = tempDir();

    const result = await run(["list"], { cwd: project, env: { HOME: home } });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith("skillset: No skills folders found")).toBe(true);
    for (const location of [
      path.join(home, ".claude", "skills"),
      path.join(home, ".agents", "skills"),
      path.join(project, ".claude", "skills"),
      path.join(project, ".agents", "skills"),
    ]) {
      expect(result.stderr).toContain(location);
    }
  });

  // With cwd === HOME, ~/.claude/skills is both a user and a project location: scan it once.
  it("with cwd equal to HOME each default skill is listed once, not shadowed by itself", async () => {
    const home = tempDir();
    writeSkill(path.join(home, ".claude", "skills"), "mine", fields("mine", "A user skill."));

    const result = await run(["list", "--json"], { cwd: home, env: { HOME: home } });

    expect(result.code).toBe(0);
    expect(parseJson<ListJson>(result.stdout).skills.map((row) => row.status)).toEqual(["ok"]);
  });
});

describe("the list table tells rows apart", () => {
  it("shows each skill's folder relative to the working folder, and names skipped skills by their folder", async () => {
    const cwd = tempDir();
    writeSkill(path.join(cwd, "team"), "dup", fields("dup", "Team copy."));
    writeSkill(path.join(cwd, "mine"), "dup", fields("dup", "My copy."));
    writeSkill(path.join(cwd, "mine"), "nameless", ["description: No name in the frontmatter."]);

    const result = await run(["list", "team", "mine"], { cwd });

    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(0, 4)).toEqual([
      "NAME      STATUS    PATH           DESCRIPTION",
      "dup       ok        mine/dup       My copy.",
      "dup       shadowed  team/dup       Team copy.",
      "nameless  skipped   mine/nameless  ",
    ]);
  });

  it("info on a skipped skill says why it was skipped", async () => {
    const dir = tempDir();
    writeSkill(dir, "fine", fields("fine", "Fine."));
    writeSkill(dir, "broken", ["name: broken"]);

    const result = await run(["info", "broken", dir]);

    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: Skill 'broken' was skipped: ${path.join(dir, "broken", "SKILL.md")}: error: Missing required field in frontmatter: description. Available skills: fine\n`,
    });
  });
});

// The large library, made once for the file.
let tree: { root: string; cleanup(): void };
beforeAll(() => {
  tree = skillTree(largeLibrary());
});
afterAll(() => tree.cleanup());

describe("skillset list --budget", () => {
  it("adds each skill's place in the model's catalog, and a summary line", async () => {
    const json = JSON.parse((await cli("list", tree.root, "--budget", "500", "--json")).stdout) as {
      skills: Array<{ name: string; catalog: string }>;
      catalog: Record<string, number>;
    };
    const places = new Set(json.skills.map((row) => row.catalog));
    expect([...places].sort()).toEqual(["name only", "search only"]);
    expect(json.catalog).toEqual({
      budget: 500,
      tokens: expect.any(Number),
      whole: 0,
      shortened: 0,
      nameOnly: expect.any(Number),
      searchOnly: expect.any(Number),
    });
    expect(json.catalog.nameOnly! + json.catalog.searchOnly!).toBe(121);
    const human = (await cli("list", tree.root, "--budget", "500")).stdout;
    expect(human.split("\n")[0]).toMatch(/^NAME +STATUS {4}CATALOG {6}PATH +DESCRIPTION$/);
    expect(human).toMatch(/\ntask-000 +(ok|warning) +name only {3}/);
    expect(human).toContain(
      `\nOver the catalog budget of 500 tokens: 0 whole, 0 shortened, ${json.catalog.nameOnly} by name only, ${json.catalog.searchOnly} left out (search_skills finds them)`,
    );
  });
});
