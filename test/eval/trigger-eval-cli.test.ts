// `skillset eval` on trigger evals (agentskills.io's format) end to end: the BUILT CLI (`npm run
// build` first) against a local OpenAI-compatible server whose model loads a skill when the
// request shares a word with its description, so every trigger rate is known.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer } from "../helpers/fake-provider-server.js";
import { runCli } from "../helpers/run-cli.js";
import { tempTree } from "../helpers/skill-tree.js";
import { wordMatchingModel } from "./trigger-model.js";

const servers: FakeProviderServer[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const tree of trees.splice(0)) tree.cleanup();
});

const CSV_QUERIES = [
  { query: "Check the csv files", should_trigger: true },
  { query: "Summarise my spreadsheet", should_trigger: true },
  { query: "Maybe a table?", should_trigger: true },
  { query: "Convert csv to yaml", should_trigger: false },
  { query: "Write release notes", should_trigger: false },
  { query: "Hello there", should_trigger: false },
];

/** Two skills; csv-tool has trigger evals in its folder, release-notes only with `notes`. */
function project(notes?: unknown) {
  const tree = tempTree("skillset-trigger-");
  trees.push(tree);
  tree.skill("skills/csv-tool", "csv-tool", "Profiles CSV files.");
  tree.skill("skills/release-notes", "release-notes", "Drafts release notes from git history.");
  const csvEvals = tree.write("skills/csv-tool/evals/eval_queries.json", JSON.stringify(CSV_QUERIES, null, 2));
  if (notes) tree.write("skills/release-notes/evals/eval_queries.json", JSON.stringify(notes));
  return { root: tree.root, skills: path.join(tree.root, "skills"), csvEvals, write: tree.write };
}

async function server(provider: "openai" | "anthropic" = "openai"): Promise<FakeProviderServer> {
  const start = provider === "openai" ? startFakeOpenAIServer : startFakeAnthropicServer;
  const started = await start(wordMatchingModel(["Maybe a table?"]));
  servers.push(started);
  return started;
}

function evaluate(args: string[], url: string, provider: "openai" | "anthropic" = "openai") {
  const model = provider === "openai" ? "openai:gpt-test" : "anthropic:claude-test";
  return runCli(["eval", ...args, "--model", model, "--max-retries", "0", "--base-url", url], {
    env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" },
  });
}

describe("skillset eval with trigger evals", { timeout: 120_000 }, () => {
  it.each(["openai", "anthropic"] as const)(
    "recognises the format, runs each query 3 times and reports trigger rates and the two pass rates (%s)",
    async (provider) => {
      const { skills, csvEvals } = project();
      const fake = await server(provider);
      const result = await evaluate([csvEvals, skills], fake.url, provider);
      expect(result).toEqual({
        code: 0,
        stderr: "",
        stdout: [
          `csv-tool · ${csvEvals}`,
          "RESULT  TRIGGERED  SHOULD  QUERY",
          "PASS    3/3        yes     Check the csv files",
          "FAIL    0/3        yes     Summarise my spreadsheet",
          "PASS    2/3        yes     Maybe a table?",
          "FAIL    3/3        no      Convert csv to yaml",
          "PASS    0/3        no      Write release notes",
          "PASS    0/3        no      Hello there",
          "Should trigger: 2/3 passed (66.7%) · near misses: 2/3 passed (66.7%)",
          "Tokens: 2,046 (1,900 input, 146 output)",
          "",
        ].join("\n"),
      });
      // A run ends once csv-tool is loaded; the model goes on only after loading another skill.
      expect(
        fake.requests
          .filter((request) => request.messages.at(-1)!.role === "tool")
          .map((request) => request.lastUserText),
      ).toEqual(Array(3).fill("Write release notes"));
      // 6 queries × 3 runs.
      expect(fake.requests.filter((request) => request.messages.at(-1)!.role === "user")).toHaveLength(18);
    },
  );

  it("--json gives each query's triggers, runs, rate and pass, and the pass rates apart; --min-pass sets the exit code", async () => {
    const { skills, csvEvals } = project();
    const fake = await server();
    const result = await evaluate([csvEvals, skills, "--json", "--repeat", "1", "--min-pass", "0.7"], fake.url);
    const query = (text: string, should: boolean, triggers: number, pass: boolean) => ({
      query: text,
      should_trigger: should,
      triggers,
      runs: 1,
      trigger_rate: triggers,
      pass,
    });
    expect(JSON.parse(result.stdout)).toEqual({
      skills: [
        {
          skill: "csv-tool",
          file: csvEvals,
          queries: [
            query("Check the csv files", true, 1, true),
            query("Summarise my spreadsheet", true, 0, false),
            query("Maybe a table?", true, 1, true),
            query("Convert csv to yaml", false, 1, false),
            query("Write release notes", false, 0, true),
            query("Hello there", false, 0, true),
          ],
          should_trigger: { passed: 2, total: 3, pass_rate: 0.6667 },
          near_miss: { passed: 2, total: 3, pass_rate: 0.6667 },
        },
      ],
      summary: { passed: 4, total: 6, pass_rate: 0.6667 },
    });
    expect(result.stderr).toBe("skillset: 4/6 queries passed, under --min-pass 0.7.\n");
    expect(result.code).toBe(1);
  });

  it("given a folder, measures every skill in it that has evals/eval_queries.json, each against its own skill", async () => {
    const { skills } = project([
      { query: "Draft the release notes", should_trigger: true },
      { query: "Profile the csv", should_trigger: false },
    ]);
    const fake = await server();
    const result = await evaluate([skills, skills, "--repeat", "1"], fake.url);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        `release-notes · ${path.join(skills, "release-notes", "evals", "eval_queries.json")}`,
        "RESULT  TRIGGERED  SHOULD  QUERY",
        "PASS    1/1        yes     Draft the release notes",
        "PASS    0/1        no      Profile the csv",
        "Should trigger: 1/1 passed (100%) · near misses: 1/1 passed (100%)",
        "",
        "All skills: 6/8 passed (75%)",
      ].join("\n"),
    );
    expect(result.stdout.indexOf("csv-tool ·")).toBeLessThan(result.stdout.indexOf("release-notes ·"));
  });

  it("--skill names the skill of a file kept outside the skills; without it such a file is refused before any model call", async () => {
    const { skills, write } = project();
    const outside = write("queries.json", JSON.stringify([{ query: "Write release notes", should_trigger: true }]));
    const fake = await server();
    const named = await evaluate([outside, skills, "--skill", "release-notes", "--repeat", "1"], fake.url);
    expect(named.stdout).toContain(
      `release-notes · ${outside}\nRESULT  TRIGGERED  SHOULD  QUERY\nPASS    1/1        yes     Write release notes\n`,
    );

    const before = fake.requests.length;
    const unnamed = await evaluate([outside, skills], fake.url);
    expect(unnamed).toEqual({
      code: 2,
      stdout: "",
      stderr: `skillset: ${outside} is a trigger eval (query, should_trigger) outside every skill folder of the sources: name the skill it measures with --skill <name>\n`,
    });
    const unknown = await evaluate([outside, skills, "--skill", "csv"], fake.url);
    expect(unknown.stderr).toBe(
      "skillset: --skill csv: none of the sources has this skill (skills: csv-tool, release-notes)\n",
    );
    expect(fake.requests.length).toBe(before);
  });

  it("warns when the measured skill cannot be loaded by the model, only invoked by a user", async () => {
    const { skills, write } = project();
    write(
      "skills/deploy/SKILL.md",
      "---\nname: deploy\ndescription: Deploys the app.\ndisable-model-invocation: true\n---\n\nDeploy.\n",
    );
    const evals = write(
      "skills/deploy/evals/eval_queries.json",
      JSON.stringify([{ query: "Deploys the app now", should_trigger: true }]),
    );
    const fake = await server();
    const result = await evaluate([evals, skills, "--repeat", "1"], fake.url);
    expect(result.stderr).toBe(
      "deploy has disable-model-invocation: true, so the model never loads it by its description: only a /deploy in a query triggers it.\n",
    );
    expect(result.stdout).toContain("FAIL    0/1        yes     Deploys the app now\n");
  });

  it("refuses --skill with a cases file, and a folder whose skills have no trigger evals", async () => {
    const { skills, write, root } = project();
    const fake = await server();
    const cases = write("cases.yaml", "- request: Hi\n  expected: none\n");
    expect((await evaluate([cases, skills, "--skill", "csv-tool"], fake.url)).stderr).toBe(
      "skillset: --skill names the skill a trigger-eval file (query, should_trigger) measures; it applies to such a file only\n",
    );
    // A trigger-eval file that does not parse is not "a cases file": its parse error is the answer.
    const broken = write("broken.json", '[{ "query": "Check the csv files", "should_trigger": true },');
    const parsed = await evaluate([broken, skills, "--skill", "csv-tool"], fake.url);
    expect(parsed.stderr).toBe(`skillset: ${broken}: Flow sequence must end with a ] at line 1, column 61\n`);
    expect(parsed.code).toBe(1);
    const notes = path.join(skills, "release-notes");
    expect((await evaluate([notes, skills], fake.url)).stderr).toBe(
      `skillset: No skill in ${notes} has trigger evals (evals/eval_queries.json in its folder); skills there: release-notes\n`,
    );
    const other = path.join(root, "other");
    write("other/notes.txt", "not a skill");
    expect((await evaluate([other, skills], fake.url)).stderr).toBe(
      `skillset: No skill of the sources is in ${other}: give the skills folder that holds it as a source (skillset eval ${other} <skills folder> --model …)\n`,
    );
    expect(fake.requests).toHaveLength(0);
  });
});
