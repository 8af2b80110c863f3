// The built CLI over the layouts `npx skills add` makes, under Node 20: __fixtures__/skills-cli-1.7.4-copy-and-link.json
// is a recording of what skills 1.7.4 (Node 22) wrote for `skills add <collection> --skill copied
// --agent claude-code codex --copy --yes` and `skills add <collection> --skill linked --agent
// claude-code codex --yes` (each file, the link as its target, skills-lock.json), as
// test/skills-installer/quiet-layouts.spec.ts makes them with the real installer. Each skill is one
// skill, quietly; a copy that differs by one byte is still a skill hidden by another.
import { execFile } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const RECORDING = fileURLToPath(new URL("../__fixtures__/skills-cli-1.7.4-copy-and-link.json", import.meta.url));
const run = promisify(execFile);

type Entry = { path: string; content: string } | { path: string; link: string };

let base: string;
let project: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "skillset-installer-layouts-"));
  project = join(base, "project");
  for (const entry of JSON.parse(readFileSync(RECORDING, "utf8")) as Entry[]) {
    const path = join(project, entry.path);
    mkdirSync(dirname(path), { recursive: true });
    if ("link" in entry) symlinkSync(entry.link, path);
    else writeFileSync(path, entry.content);
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd: project,
      env: { ...process.env, HOME: join(base, "home"), NO_COLOR: "1", XDG_DATA_HOME: join(base, "data") },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const doctorCodes = async () => {
  const doctor = await cli("doctor", "--fail-on", "warning", "--no-threads", "--json");
  const report = JSON.parse(doctor.stdout) as { skills: number; findings: Array<{ code: string; skill: string }> };
  return { code: doctor.code, skills: report.skills, findings: report.findings.map((f) => `${f.code} ${f.skill}`) };
};

describe("the skills installer's copy and link layouts", () => {
  it("are faithful: skillset verify finds every file as skills-lock.json records it", async () => {
    const verify = await cli("verify", "--json");
    expect(verify.code).toBe(0);
    const report = JSON.parse(verify.stdout) as { skills: Array<{ name: string; status: string }> };
    expect(report.skills.map((skill) => [skill.name, skill.status])).toEqual([
      ["copied", "ok"],
      ["linked", "ok"],
    ]);
  });

  it("list shows each skill once, with no diagnostic; --json names the other paths as the same skill", async () => {
    const list = await cli("list");
    expect(list.stderr).toBe("");
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
    const json = JSON.parse((await cli("list", "--json")).stdout) as {
      diagnostics: Array<{ code: string; file: string; message: string }>;
    };
    expect(json.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["same-skill", join(project, ".claude/skills/copied/SKILL.md")],
      ["same-skill", join(project, ".claude/skills/linked/SKILL.md")],
    ]);
    expect(json.diagnostics[0]!.message).toBe(
      `Skill 'copied' is the same skill as ${join(project, ".agents/skills/copied/SKILL.md")} from local:${join(project, ".agents/skills")} (an identical copy: the same files, byte for byte); listed once`,
    );
  });

  it("doctor --fail-on warning passes on the clean install", async () => {
    expect(await doctorCodes()).toEqual({ code: 0, skills: 2, findings: [] });
  });

  it("a copy that differs by one byte, in any file, is still hidden by the other and doctor warns", async () => {
    appendFileSync(join(project, ".claude/skills/copied/scripts/run.sh"), "#");
    const list = await cli("list");
    expect(list.stdout).toContain("copied  shadowed  .claude/skills/copied");
    expect(await doctorCodes()).toEqual({ code: 1, skills: 2, findings: ["shadowed copied"] });
  });
});
