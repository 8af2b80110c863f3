// `skillset prompt --protocol text`: the BUILT binary (dist/cli/main.js) prints exactly the system
// prompt createLocalSkillRunner sends.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderTextProtocolPrompt } from "../src/host.js";
import { createMemorySource } from "../src/index.js";
import { createLocalSkillRunner } from "../src/node.js";
import { scriptedComplete } from "./text-protocol/helpers.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../examples/skills", import.meta.url));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

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
    const folder = mkdtempSync(join(tmpdir(), "skillset-empty-"));
    try {
      expect((await run(["prompt", "--protocol", "text", folder])).stdout).toBe(`${empty}\n`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(empty).toBe("<available_skills>\n</available_skills>\n\n(No skills are available.)");
  });

  it("fits the catalog to --budget as the runner's catalogBudget does, offers <search_skills>, and says where the skills went", async () => {
    const folder = mkdtempSync(join(tmpdir(), "skillset-budget-"));
    try {
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
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
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
