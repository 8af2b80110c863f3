// `skillset doctor` and `skillset package` as a user runs them: the built CLI, real folders, a
// real chat thread database written by the agent loop, the package read back by Python.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillsMiddleware } from "../../src/langchain.js";
import { readZip } from "../helpers/read-zip.js";
import { runCli } from "../helpers/run-cli.js";
import { usePython3 } from "../helpers/test-environment.js";
import { load, scriptedModel } from "../langchain/helpers.js";
import { plantedLibrary } from "./library-fixture.js";

let library: ReturnType<typeof plantedLibrary>;
let data: string;
beforeAll(() => {
  library = plantedLibrary();
  data = mkdtempSync(join(tmpdir(), "skillset-doctor-data-"));
});
afterAll(() => {
  library.cleanup();
  rmSync(data, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { cwd: library.root, env: { XDG_DATA_HOME: data } });

interface JsonReport {
  skills: number;
  summary: Record<string, number>;
  failOn: string;
  ok: boolean;
  findings: Array<{ code: string; severity: string; skill: string; file: string; fix: string }>;
  catalog: { budget: number | false; skills: Array<{ name: string; tokens: number; place: string }> };
  threads: { examined: boolean; count?: number; reason?: string };
}

describe("skillset doctor", () => {
  it("prints each finding with its file and fix, and exits 1 for the error finding", async () => {
    const { code, stdout, stderr } = await cli("doctor", library.user, library.project);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toContain(
      "error   placeholder-description  draft-skill\n  'draft-skill' still has the placeholder description skillset create wrote\n  file: project/draft-skill/SKILL.md\n  fix: Write what the skill does and when to use it, in the words of the requests it is for\n",
    );
    expect(stdout).toContain(
      "warning unmentioned-resource  sql-format\n  'sql-format' ships assets/logo.txt, which its SKILL.md never mentions: the model will not know to use it\n  file: project/sql-format/assets/logo.txt\n",
    );
    for (const code of [
      "rival-skills",
      "shadowed",
      "body-too-many-lines",
      "body-too-many-tokens",
      "description-without-when",
      "placeholder-body",
    ])
      expect(stdout).toContain(` ${code}  `);
    expect(stdout).toMatch(/\nCatalog: \d+ tokens under the budget of 5,000; the skills' whole lines take \d+\n/);
    expect(stdout).toContain(
      `Threads: not read: no chat threads are saved at ${join(data, "skillset", "chat-threads.sqlite")} yet\n`,
    );
    expect(stdout).toContain(
      "\n7 skills: 1 error, 7 warnings, 0 info\n\n1 finding at --fail-on error or above: exit code 1\n",
    );
  });

  it("--json: the findings, counts, catalog costs and whether threads were read; --fail-on sets the exit code", async () => {
    const { code, stdout } = await cli("doctor", library.user, library.project, "--json", "--fail-on", "none");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report).toMatchObject({
      skills: 7,
      summary: { error: 1, warning: 7, info: 0 },
      failOn: "none",
      ok: true,
      threads: { examined: false },
    });
    expect(report.findings[0]).toEqual({
      code: "placeholder-description",
      severity: "error",
      skill: "draft-skill",
      file: join(library.project, "draft-skill/SKILL.md"),
      message: "'draft-skill' still has the placeholder description skillset create wrote",
      fix: expect.any(String),
    });
    expect(report.catalog.skills).toHaveLength(7);
    expect((await cli("doctor", library.user, library.project, "--fail-on", "warning")).code).toBe(1);
    expect((await cli("doctor", join(library.user), "--fail-on", "warning", "--no-threads")).code).toBe(0);
    expect(await cli("doctor", library.user, "--fail-on", "fatal")).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --fail-on must be one of error, warning, info, none; got 'fatal'\n",
    });
  });

  it("names the skills no saved chat thread loaded, reading the threads skillset chat keeps", async () => {
    // The thread database as skillset chat writes it: the real agent loop with the SQLite checkpointer.
    mkdirSync(join(data, "skillset"), { recursive: true });
    const agent = createAgent({
      model: scriptedModel([[load("pdf-tools")], [load("csv-report")]]),
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [library.user, library.project] })],
      checkpointer: SqliteSaver.fromConnString(join(data, "skillset", "chat-threads.sqlite")),
    });
    await agent.invoke(
      { messages: [{ role: "user", content: "merge these PDFs, then summarise the CSV" }] },
      { configurable: { thread_id: "t1" } },
    );
    const { stdout } = await cli("doctor", library.user, library.project, "--json");
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.threads).toEqual({ examined: true, path: join(data, "skillset", "chat-threads.sqlite"), count: 1 });
    expect(
      report.findings.filter((finding) => finding.code === "never-loaded").map((finding) => finding.skill),
    ).toEqual(["db-migrate", "draft-skill", "pdf-extract", "pdf-text", "sql-format"]);
    expect((await cli("doctor", library.user, library.project, "--no-threads", "--json")).stdout).toContain(
      '"reason": "--no-threads"',
    );
  });

  it("reports the placeholder of a skill made by skillset create, and a clean library as no findings", async () => {
    const folder = mkdtempSync(join(tmpdir(), "skillset-doctor-create-"));
    try {
      expect((await cli("create", "fresh", "--dir", folder)).code).toBe(0);
      const made = JSON.parse((await cli("doctor", folder, "--json", "--no-threads")).stdout) as JsonReport;
      expect(made.findings.map((finding) => finding.code)).toEqual(["placeholder-description", "placeholder-body"]);
      writeFileSync(
        join(folder, "fresh", "SKILL.md"),
        "---\nname: fresh\ndescription: Greets the user. Use when the user says hello.\n---\n\n# fresh\n\nSay hello back.\n",
      );
      const clean = await cli("doctor", folder, "--no-threads");
      expect(clean.code).toBe(0);
      expect(clean.stdout).toMatch(/^No findings\.\n\nCatalog: /);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("skillset package", () => {
  it("writes <name>.skill in the working folder, listing what went in; two runs give the same bytes", async () => {
    const first = await cli("package", join(library.project, "pdf-tools"));
    expect(first).toEqual({
      code: 0,
      stderr: "",
      stdout: expect.stringMatching(
        /^ {2}pdf-tools\/SKILL\.md\n {2}pdf-tools\/scripts\/merge\.py\nPackaged pdf-tools \(2 files, \d+ bytes\) to .*\/pdf-tools\.skill\n$/,
      ),
    });
    const bytes = readFileSync(join(library.root, "pdf-tools.skill"));
    expect((await cli("package", join(library.project, "pdf-tools"), "--out", "copy.zip")).code).toBe(0);
    expect(readFileSync(join(library.root, "copy.zip")).equals(bytes)).toBe(true);
  });

  it.runIf(usePython3())(
    "gives a zip Python reads, with the skill folder on top and the script executable",
    async () => {
      await cli("package", join(library.project, "pdf-tools"), "--out", "out/pdf-tools.skill");
      const entries = readZip(join(library.root, "out/pdf-tools.skill"));
      expect(entries.map((entry) => [entry.name, entry.mode.toString(8)])).toEqual([
        ["pdf-tools/SKILL.md", "100644"],
        ["pdf-tools/scripts/merge.py", "100755"],
      ]);
    },
  );

  it("refuses an invalid skill with the validator's message, and a package inside the skill folder", async () => {
    const invalid = await cli("package", library.root);
    expect(invalid).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: ${library.root} is not a valid skill, so it was not packaged:\n  Missing required file: SKILL.md\n`,
    });
    const inside = await cli(
      "package",
      join(library.project, "pdf-tools"),
      "--out",
      join(library.project, "pdf-tools", "self.skill"),
    );
    expect(inside).toEqual({
      code: 2,
      stdout: "",
      stderr: `skillset: --out ${join(library.project, "pdf-tools", "self.skill")} is inside the skill folder; write the package elsewhere\n`,
    });
  });
});
