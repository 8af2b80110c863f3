// `skillset prompt --protocol text`: the BUILT binary (dist/cli/main.js) prints exactly the system
// prompt createSkillRunner sends.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createMemorySource, renderTextProtocolPrompt } from "../src/index.js";
import { createSkillRunner } from "../src/node.js";
import { scriptedComplete } from "./text-protocol/helpers.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../examples/skills", import.meta.url));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// What the runner sends, over the same folder, with and without an executor.
async function runnerPrompt(executor: boolean): Promise<string> {
  const { complete, calls } = scriptedComplete(["Hi."]);
  const runner = createSkillRunner({ sources: [EXAMPLES], complete, ...(executor ? { executor: { specificationVersion: "v1", run: async () => Promise.reject(new Error("unused")) } } : {}) });
  await runner.run("Hello");
  runner.close();
  return calls[0]![0]!.content;
}

describe("skillset prompt --protocol text", () => {
  it("prints the runner's system prompt exactly, with scripts, and without them for --no-scripts", async () => {
    const [withScripts, withoutScripts] = await Promise.all([run(["prompt", "--protocol", "text", EXAMPLES]), run(["prompt", "--protocol", "text", "--no-scripts", EXAMPLES])]);
    expect(withScripts).toEqual({ code: 0, stdout: `${await runnerPrompt(true)}\n`, stderr: "" });
    expect(withoutScripts).toEqual({ code: 0, stdout: `${await runnerPrompt(false)}\n`, stderr: "" });
    expect(withScripts.stdout).toContain('<execute_script skill="skill-name">');
    expect(withoutScripts.stdout).not.toContain("<execute_script");
    expect((await run(["prompt", "--protocol", "text", "--format", "xml", EXAMPLES])).stdout).toBe(withScripts.stdout);
  });

  it("counts tokens on stderr: the prompt, its preamble and the cost of each skill", async () => {
    const result = await run(["prompt", "--protocol", "text", "--tokens", EXAMPLES]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\d+ tokens \(o200k_base\): \d+ preamble, \d+\.\d per skill on average over 3 skills\n$/);
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

  it.each([
    [["--protocol", "json"], "skillset: Unknown protocol 'json': use tools or text"],
    [["--protocol", "text", "--format", "markdown"], "skillset: --protocol text always shows the XML catalog (<available_skills>): leave out --format, or use --format xml"],
    [["--no-scripts"], "skillset: --no-scripts is for --protocol text"],
  ])("refuses %j as a usage error", async (args, message) => {
    expect(await run(["prompt", ...args, EXAMPLES])).toEqual({ code: 2, stdout: "", stderr: `${message}\n` });
  });
});
