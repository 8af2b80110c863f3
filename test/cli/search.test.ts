// `skillset search`: the skills search_skills would offer for a request, in JSON and a table,
// over a library of 121 skills.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { skillTree } from "../langchain/helpers.js";
import { largeLibrary } from "./helpers.js";

// The large library, made once for the file.
let tree: { root: string; cleanup(): void };
beforeAll(() => {
  tree = skillTree(largeLibrary());
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
