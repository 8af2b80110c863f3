// Large libraries on the command line: `search`, `prompt --budget`, and `list` saying where the
// budgeted catalog puts each skill. The built CLI, on real folders.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./helpers/run-cli.js";
import { skillFile, skillTree } from "./langchain/helpers.js";

// 120 skills of about 40 tokens a line: over a 500-token budget, not over the default.
const TOPICS = ["invoices", "spreadsheets", "kubernetes", "changelogs", "photographs", "contracts"];
const files: Record<string, string> = {};
for (let index = 0; index < 120; index++) {
  const topic = TOPICS[index % TOPICS.length]!;
  files[`task-${String(index).padStart(3, "0")}/SKILL.md`] = skillFile(
    `task-${String(index).padStart(3, "0")}`,
    `Checks ${topic} for the team, step ${index}: validates fields, fixes formats and writes a short report of what changed.`,
  );
}
files["pdf-forms/SKILL.md"] = skillFile("pdf-forms", "Fill in PDF forms and flatten them for signing.");
let tree: { root: string; cleanup(): void };
beforeAll(() => {
  tree = skillTree(files);
});
afterAll(() => tree.cleanup());

describe("skillset search", () => {
  it("prints the best matches as JSON with name, description, path and score", async () => {
    const result = await cli("search", "fill a pdf form", tree.root, "--limit", "3", "--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const { results } = JSON.parse(result.stdout) as { results: Array<Record<string, unknown>> };
    expect(results[0]).toEqual({
      name: "pdf-forms",
      description: "Fill in PDF forms and flatten them for signing.",
      path: join(tree.root, "pdf-forms", "SKILL.md"),
      score: expect.any(Number),
    });
    expect(results.length).toBeLessThanOrEqual(3);
    expect(Object.keys(results[0]!)).toEqual(["name", "description", "path", "score"]);
  });

  it("keeps results for matches above the relevance floor and lists weak ones apart, in JSON and in the table", async () => {
    // Only words every task skill shares ("fixes", "report"): no skill fits a Dockerfile.
    const json = await cli("search", "write a Dockerfile that fixes the report", tree.root, "--limit", "3", "--json");
    const { results, weakMatches } = JSON.parse(json.stdout) as {
      results: unknown[];
      weakMatches: Array<{ name: string }>;
    };
    expect(results).toEqual([]);
    expect(weakMatches).toHaveLength(3);
    expect(weakMatches.every((match) => match.name.startsWith("task-"))).toBe(true);
    const table = (
      await cli("search", "write a Dockerfile that fixes the report", tree.root, "--limit", "3")
    ).stdout.split("\n");
    expect(table.slice(0, 2)).toEqual([
      "No skill matches 'write a Dockerfile that fixes the report' well.",
      "Weak matches (below the relevance floor), probably not what you need:",
    ]);
    expect(table[2]).toMatch(/^NAME +SCORE {2}PATH +DESCRIPTION$/);
    expect(table.filter((line) => line.startsWith("task-"))).toHaveLength(3);
    const strong = JSON.parse((await cli("search", "fill a pdf form", tree.root, "--limit", "3", "--json")).stdout) as {
      results: Array<{ name: string }>;
      weakMatches: unknown[];
    };
    expect(strong.results.map((result) => result.name)).toEqual(["pdf-forms"]);
  });

  it("prints a table, says when nothing matches, and refuses a bad limit or an empty query", async () => {
    const table = await cli("search", "kubernetes", tree.root, "--limit", "2");
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME +SCORE {2}PATH +DESCRIPTION$/);
    expect(table.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect((await cli("search", "zebra", tree.root)).stdout).toBe("No skills match 'zebra'.\n");
    expect(await cli("search", "pdf", tree.root, "--limit", "0")).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --limit must be a whole number from 1 to 25; got '0'\n",
    });
    expect(await cli("search", " ", tree.root)).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: The search query is empty: describe the task in a few words.\n",
    });
  });
});

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
