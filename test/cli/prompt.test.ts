// `skillset prompt`: the catalog as the model sees it (markdown, XML), token counts, the catalog
// budget, and with --protocol text the whole system prompt createLocalSkillRunner sends.
import { mkdirSync, writeFileSync } from "node:fs";
import path, { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTextProtocolPrompt } from "../../src/host.js";
import { createMemorySource } from "../../src/index.js";
import { createLocalSkillRunner } from "../../src/node.js";
import { cli, EXAMPLES } from "../helpers/run-cli.js";
import { skillTree } from "../langchain/helpers.js";
import { scriptedComplete } from "../text-protocol/helpers.js";
import { fields, largeLibrary, useCliRun, writeSkill } from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("skillset prompt", () => {
  it("markdown starts with `## Skills` and has one `- name: description` line per skill in name order", async () => {
    const dir = tempDir();
    writeSkill(dir, "zeta", fields("zeta", "Last by name."));
    writeSkill(dir, "alpha", fields("alpha", "First by name."));
    writeSkill(dir, "mid", ["name: mid", "description: |", "  Spans", "  two lines."]);

    const result = await run(["prompt", dir]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.startsWith("## Skills\n\n")).toBe(true);
    expect(result.stdout.split("\n").filter((line) => line.startsWith("- "))).toEqual([
      "- alpha: First by name.",
      "- mid: Spans two lines.",
      "- zeta: Last by name.",
    ]);
    // The tail is what the middleware adds on a first model call: the resource line, then the empty loaded list.
    expect(
      result.stdout.endsWith(
        "- alpha: First by name.\n- mid: Spans two lines.\n- zeta: Last by name.\n" +
          "Read a loaded skill's resources with `read_file`; its `allowed-tools` are recommendations.\n\nLoaded skills: none (10 slots free).\n",
      ),
    ).toBe(true);
  });

  it("--format xml prints exactly the reference <available_skills> format", async () => {
    const dir = tempDir();
    writeSkill(dir, "zeta", fields("zeta", `"Zeta & <friends>: it's \\"fine\\""`));
    writeSkill(dir, "beta", fields("beta", "Beta one."));

    const result = await run(["prompt", dir, "--format", "xml"]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "beta",
        "</name>",
        "<description>",
        "Beta one.",
        "</description>",
        "<location>",
        path.join(dir, "beta", "SKILL.md"),
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "zeta",
        "</name>",
        "<description>",
        "Zeta &amp; &lt;friends&gt;: it&#x27;s &quot;fine&quot;",
        "</description>",
        "<location>",
        path.join(dir, "zeta", "SKILL.md"),
        "</location>",
        "</skill>",
        "</available_skills>",
        "",
      ].join("\n"),
    );
  });

  it("--tokens prints the counts on stderr and leaves stdout unchanged", async () => {
    const dir = tempDir();
    writeSkill(dir, "one", fields("one", "First skill."));
    writeSkill(dir, "two", fields("two", "Second skill."));

    const [plain, counted] = await Promise.all([run(["prompt", dir]), run(["prompt", dir, "--tokens"])]);

    expect(plain.code).toBe(0);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toBe(plain.stdout);
    expect(counted.stderr).toMatch(/^\d+ tokens \(o200k_base\): \d+ preamble/);
    expect(counted.stderr).toMatch(
      /^\d+ tokens \(o200k_base\): \d+ preamble, \d+\.\d per skill on average over 2 skills\n$/,
    );
  });

  it("--format json is a usage error: exit 2", async () => {
    const dir = tempDir();
    writeSkill(dir, "one", fields("one", "First skill."));

    const result = await run(["prompt", dir, "--format", "json"]);

    expect(result).toEqual({ code: 2, stdout: "", stderr: "skillset: Unknown format 'json': use markdown or xml\n" });
  });
});

// The large library, made once for the file.
let tree: { root: string; cleanup(): void };
beforeAll(() => {
  tree = skillTree(largeLibrary());
});
afterAll(() => tree.cleanup());

describe("skillset prompt --budget", () => {
  it("fits the catalog to the budget and says on stderr where the skills went", async () => {
    const result = await cli("prompt", tree.root, "--budget", "500", "--tokens");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("more skills are not listed here: find them with `search_skills`.");
    const [counts, summary] = result.stderr.trimEnd().split("\n");
    expect(Number(counts!.split(" ")[0])).toBeLessThanOrEqual(1000);
    expect(summary).toMatch(
      /^Over the catalog budget of 500 tokens: 0 whole, 0 shortened, \d+ by name only, \d+ left out \(search_skills finds them\); the catalog takes \d+ tokens\.$/,
    );
  });

  it("with none, or under the default budget, shows every whole line", async () => {
    for (const args of [["--budget", "none"], []]) {
      const result = await cli("prompt", tree.root, ...args);
      expect(result.stdout).toContain("\n- task-119: Checks contracts for the team, step 119");
      expect(result.stdout).not.toContain("not listed here");
    }
    expect(await cli("prompt", tree.root, "--budget", "12")).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --budget must be a whole number of tokens of at least 500, or none; got '12'\n",
    });
  });
});

// What the runner sends, over the same folder, with and without an executor.
async function runnerPrompt(executor: boolean, folder = EXAMPLES, catalogBudget?: number | false): Promise<string> {
  const { complete, calls } = scriptedComplete(["Hi."]);
  const runner = createLocalSkillRunner({
    sources: [folder],
    complete,
    ...(executor
      ? { executor: { specificationVersion: "v1", run: async () => Promise.reject(new Error("unused")) } }
      : {}),
    ...(catalogBudget !== undefined ? { catalogBudget } : {}),
  });
  await runner.run("Hello");
  runner.close();
  return calls[0]![0]!.content;
}

describe("skillset prompt --protocol text", () => {
  it("prints the runner's system prompt exactly, with scripts, and without them for --no-scripts", async () => {
    const [withScripts, withoutScripts] = await Promise.all([
      run(["prompt", "--protocol", "text", EXAMPLES]),
      run(["prompt", "--protocol", "text", "--no-scripts", EXAMPLES]),
    ]);
    expect(withScripts).toEqual({ code: 0, stdout: `${await runnerPrompt(true)}\n`, stderr: "" });
    expect(withoutScripts).toEqual({ code: 0, stdout: `${await runnerPrompt(false)}\n`, stderr: "" });
    expect(withScripts.stdout).toContain('<execute_script skill="skill-name">');
    expect(withoutScripts.stdout).not.toContain("<execute_script");
    expect((await run(["prompt", "--protocol", "text", "--format", "xml", EXAMPLES])).stdout).toBe(withScripts.stdout);
  });

  it("counts tokens on stderr: the prompt, its preamble and the cost of each skill", async () => {
    const result = await run(["prompt", "--protocol", "text", "--tokens", EXAMPLES]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^\d+ tokens \(o200k_base\): \d+ preamble, \d+\.\d per skill on average over 3 skills\n$/,
    );
  });

  it("says when there are no skills", async () => {
    const empty = (await renderTextProtocolPrompt((await createMemorySource().scan()).skills)).text;
    const folder = tempDir();
    expect((await run(["prompt", "--protocol", "text", folder])).stdout).toBe(`${empty}\n`);
    expect(empty).toBe("<available_skills>\n</available_skills>\n\n(No skills are available.)");
  });

  it("fits the catalog to --budget as the runner's catalogBudget does, offers <search_skills>, and says where the skills went", async () => {
    const folder = tempDir();
    for (let index = 0; index < 150; index++) {
      const name = `report-skill-${String(index).padStart(3, "0")}`;
      mkdirSync(join(folder, name));
      writeFileSync(
        join(folder, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: Build report number ${index} from the sales and inventory tables, with charts.\n---\nSteps.\n`,
      );
    }
    const [budgeted, unlimited, byDefault] = await Promise.all([
      run(["prompt", "--protocol", "text", "--budget", "600", "--tokens", folder]),
      run(["prompt", "--protocol", "text", "--budget", "none", folder]),
      run(["prompt", "--protocol", "text", folder]),
    ]);
    expect(budgeted.code).toBe(0);
    expect(budgeted.stdout).toBe(`${await runnerPrompt(true, folder, 600)}\n`);
    expect(budgeted.stdout).toContain("more skills are not listed here. Find them with search_skills.</more_skills>");
    expect(budgeted.stdout).toContain("<search_skills>words about the task</search_skills>");
    expect(budgeted.stderr).toMatch(
      /\nOver the catalog budget of 600 tokens: \d+ whole, \d+ shortened, \d+ by name only, \d+ left out \(search_skills finds them\); the catalog takes \d+ tokens\.\n$/,
    );
    expect(unlimited.stdout).toBe(`${await runnerPrompt(true, folder, false)}\n`);
    expect(unlimited.stdout).not.toContain("search_skills");
    expect(byDefault.stdout).toBe(`${await runnerPrompt(true, folder)}\n`);
    expect(await run(["prompt", "--protocol", "text", "--budget", "100", folder])).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --budget must be a whole number of tokens of at least 500, or none; got '100'\n",
    });
  });

  it.each([
    [["--protocol", "json"], "skillset: Unknown protocol 'json': use tools or text"],
    [
      ["--protocol", "text", "--format", "markdown"],
      "skillset: --protocol text always shows the XML catalog (<available_skills>): leave out --format, or use --format xml",
    ],
    [["--no-scripts"], "skillset: --no-scripts is for --protocol text"],
  ])("refuses %j as a usage error", async (args, message) => {
    expect(await run(["prompt", ...args, EXAMPLES])).toEqual({ code: 2, stdout: "", stderr: `${message}\n` });
  });
});
