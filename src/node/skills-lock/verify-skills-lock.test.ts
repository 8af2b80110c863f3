import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockedProject, LOCKED_SKILLS } from "../../../test/helpers/skills-lock-project.js";
import { verifySkillsLock } from "./verify-skills-lock.js";

let fixture: ReturnType<typeof lockedProject>;
afterEach(() => fixture.cleanup());

const statuses = (report: ReturnType<typeof verifySkillsLock>) =>
  Object.fromEntries(report.skills.map((skill) => [skill.name, skill.status]));

describe("verifySkillsLock", () => {
  it("agrees with the lockfile the skills CLI wrote: every copy, link followed, is ok", () => {
    fixture = lockedProject();
    const report = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") });
    expect(report.ok).toBe(true);
    expect(report.unlisted).toEqual([]);
    expect(
      report.skills.map((skill) => [
        skill.name,
        skill.status,
        skill.installed.map((copy) => [copy.path.slice(fixture.project.length + 1), copy.status, copy.hash]),
      ]),
    ).toEqual([
      ["my-skill", "ok", [[".claude/skills/my-skill", "ok", LOCKED_SKILLS["my-skill"].hash]]],
      ["other", "ok", [[".agents/skills/other", "ok", LOCKED_SKILLS.other.hash]]],
      ["pkg-helper", "ok", [[".agents/skills/pkg-helper", "ok", LOCKED_SKILLS["pkg-helper"].hash]]],
    ]);
  });

  it("names the changed file of a locally installed skill, from the source that still has the locked hash", () => {
    fixture = lockedProject();
    appendFileSync(join(fixture.project, ".claude/skills/my-skill/sub/B.txt"), "!");
    writeFileSync(join(fixture.project, ".claude/skills/my-skill/new.txt"), "n");
    rmSync(join(fixture.project, ".claude/skills/my-skill/_Z.txt"));
    const report = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") });
    expect(report.ok).toBe(false);
    expect(statuses(report)).toEqual({ "my-skill": "modified", other: "ok", "pkg-helper": "ok" });
    expect(report.skills[0]!.installed[0]!.files).toEqual({
      changed: ["sub/B.txt"],
      added: ["new.txt"],
      removed: ["_Z.txt"],
    });
  });

  it("says honestly that it cannot name the file when the lockfile's single hash has nothing to compare with", () => {
    fixture = lockedProject();
    appendFileSync(join(fixture.project, "node_modules/pkgskills/skills/pkg-helper/SKILL.md"), "x");
    const check = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") }).skills.find(
      (skill) => skill.name === "pkg-helper",
    )!;
    expect(check.status).toBe("modified");
    expect(check.installed[0]!.files).toBeUndefined();
    expect(check.installed[0]!.note).toBe(
      "the lockfile records one hash over the whole folder, not one per file, and its source is not at hand to compare with, so the changed files cannot be named",
    );
  });

  it("reports a locked skill that is not installed as missing, and an installed one the lockfile lacks as unlisted", () => {
    fixture = lockedProject();
    rmSync(join(fixture.project, ".agents/skills/other"), { recursive: true });
    mkdirSync(join(fixture.project, ".agents/skills/stray"));
    writeFileSync(join(fixture.project, ".agents/skills/stray/SKILL.md"), "---\nname: stray\ndescription: d\n---\n");
    const report = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") });
    expect(statuses(report)).toEqual({ "my-skill": "ok", other: "missing", "pkg-helper": "ok" });
    expect(report.skills[1]!.note).toBe("no folder named other with a SKILL.md in the skills folders");
    expect(report.unlisted).toEqual([{ path: join(fixture.project, ".agents/skills/stray") }]);
    expect(report.ok).toBe(false);
  });

  it("looks only in the folders given, when given", () => {
    fixture = lockedProject();
    const report = verifySkillsLock({
      lockfile: join(fixture.project, "skills-lock.json"),
      locations: [join(fixture.project, ".agents/skills")],
    });
    expect(statuses(report)).toEqual({ "my-skill": "missing", other: "ok", "pkg-helper": "ok" });
  });

  it("checks every installed copy: one copy changed makes the skill modified", () => {
    fixture = lockedProject();
    // A second, independent copy of my-skill (copy mode into another agent's folder), changed.
    const codex = join(fixture.project, ".codex/skills/my-skill");
    mkdirSync(codex, { recursive: true });
    for (const [path, content] of Object.entries(LOCKED_SKILLS["my-skill"].files)) {
      mkdirSync(join(codex, path, ".."), { recursive: true });
      writeFileSync(join(codex, path), content);
    }
    appendFileSync(join(codex, "a.txt"), "?");
    const check = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") }).skills[0]!;
    expect(check.status).toBe("modified");
    expect(check.installed.map((copy) => [copy.path.slice(fixture.project.length + 1), copy.status])).toEqual([
      [".claude/skills/my-skill", "ok"],
      [".codex/skills/my-skill", "modified"],
    ]);
  });
});
