// `skillset tune` end to end: the BUILT CLI (`npm run build` first) against a local
// OpenAI-compatible server whose agent model loads a skill when the request shares a word with
// its description, and whose proposals are scripted, so the split, every pass rate and the
// chosen iteration are known.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer, FakeReply, FakeRequest } from "../helpers/fake-provider-server.js";
import { runCli } from "../helpers/run-cli.js";
import { tempTree } from "../helpers/skill-tree.js";
import { wordMatchingModel } from "./trigger-model.js";

const servers: FakeProviderServer[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const tree of trees.splice(0)) tree.cleanup();
});

const yes = (query: string) => ({ query, should_trigger: true });
const no = (query: string) => ({ query, should_trigger: false });
// Split by the hash of each query: train gets "Check the csv files", "Summarise my spreadsheet",
// "Profile this table of orders", "Write release notes", "Hello there" and "Upload each row to postgres".
const QUERIES = [
  yes("Check the csv files"),
  yes("Summarise my spreadsheet"),
  yes("Profile this table of orders"),
  yes("What columns does data.tsv have"),
  yes("Find missing values in the export"),
  no("Convert csv to yaml"),
  no("Write release notes"),
  no("Update the formulas in my spreadsheet"),
  no("Hello there"),
  no("Upload each row to postgres"),
];
const VALIDATION = [
  "What columns does data.tsv have",
  "Find missing values in the export",
  "Convert csv to yaml",
  "Update the formulas in my spreadsheet",
];

const SKILL_MD =
  "---\n# The CSV skill\nname: csv-tool\ndescription: >-\n  Profiles CSV\n  files.\nmetadata:\n  owner: data-team   # who to ask\n---\n\n# csv-tool\n\nProfile the file.\n";
const FIRST = "Profile tabular data: summarise a spreadsheet or table, its columns and missing values.";
const SECOND = "Check csv files and profile a spreadsheet table.";

function project(queries: unknown = QUERIES) {
  const tree = tempTree("skillset-tune-");
  trees.push(tree);
  const skillFile = tree.write("skills/csv-tool/SKILL.md", SKILL_MD);
  tree.skill("skills/release-notes", "release-notes", "Drafts release notes from git history.");
  if (queries) tree.write("skills/csv-tool/evals/eval_queries.json", JSON.stringify(queries, null, 2));
  return {
    skills: path.join(tree.root, "skills"),
    skillFile,
    evals: path.join(tree.root, "skills", "csv-tool", "evals", "eval_queries.json"),
    write: tree.write,
  };
}

/** Proposals in order: one that helps, one far too long, then (asked again) one that overfits train. */
async function server(): Promise<FakeProviderServer> {
  const proposals: FakeReply[] = [
    { text: `Here is a broader one:\n<description>${FIRST}</description>`, usage: { input: 400, output: 30 } },
    { text: `<description>${"Use this for tables. ".repeat(60)}</description>`, usage: { input: 450, output: 300 } },
    { text: `<description>${SECOND}</description>`, usage: { input: 500, output: 20 } },
  ];
  const started = await startFakeOpenAIServer(
    wordMatchingModel([], () => proposals.shift() ?? { status: 400, message: "no more proposals scripted" }),
  );
  servers.push(started);
  return started;
}

function tune(args: string[], url: string) {
  return runCli(["tune", ...args, "--model", "openai:gpt-test", "--max-retries", "0", "--base-url", url], {
    env: { OPENAI_API_KEY: "sk-test" },
  });
}

const proposalRequests = (fake: FakeProviderServer) =>
  fake.requests.filter((request: FakeRequest) => !request.system.includes("## Skills"));

describe("skillset tune", { timeout: 180_000 }, () => {
  it("proposes from train failures, keeps the iteration best on validation, and prints the table and both descriptions", async () => {
    const { skills, skillFile, evals } = project();
    const fake = await server();
    const result = await tune(["csv-tool", skills], fake.url);
    expect(result.stdout).toBe(
      [
        `Tuning the description of csv-tool on ${evals}, 3 runs per query, up to 5 iterations`,
        "Train: 6 queries (3 should trigger) · validation: 4 queries (2 should trigger)",
        "",
        "ITERATION    TRAIN          VALIDATION",
        "0 (current)  4/6 (66.7%)    1/4 (25%)",
        "1            5/6 (83.3%)    3/4 (75%)",
        "2            6/6 (100%)     0/4 (0%)",
        "",
        "Stopped: every train query passed.",
        "Best: iteration 1, validation 3/4 passed (75%) (was 1/4 passed (25%)); train 5/6 passed (83.3%) (was 4/6 passed (66.7%))",
        "",
        "Before:",
        "  Profiles CSV files.",
        "",
        "After:",
        `  ${FIRST}`,
        "",
        "Tokens: 10,430 (9,450 input, 980 output)",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toBe(`Not written: run again with --write to put the new description into ${skillFile}.\n`);
    expect(result.code).toBe(0);
    expect(readFileSync(skillFile, "utf8")).toBe(SKILL_MD);

    // The model saw train failures only; the refused answer was followed by the validator's message.
    const asked = proposalRequests(fake).map((request) => request.lastUserText);
    expect(asked).toHaveLength(3);
    expect(asked[0]).toContain(
      "Requests it should be loaded for, where it was not:\n- Summarise my spreadsheet (0/3 runs loaded the skill)\n- Profile this table of orders (0/3 runs loaded the skill)\n",
    );
    expect(asked[2]).toContain(
      "Your previous answer was refused: Description exceeds 1024 character limit (1259 chars)",
    );
    for (const text of asked) for (const query of VALIDATION) expect(text).not.toContain(query);
  });

  it("--write puts the best description into SKILL.md and changes nothing else; --json reports the split, every iteration and the outcome", async () => {
    const { skills, skillFile, evals } = project();
    const fake = await server();
    const result = await tune(["csv-tool", skills, "--write", "--json"], fake.url);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Wrote the new description into ${skillFile}.\n`);
    const rate = (passed: number, total: number) => ({
      passed,
      total,
      pass_rate: Math.round((passed / total) * 10_000) / 10_000,
    });
    expect(JSON.parse(result.stdout)).toEqual({
      skill: "csv-tool",
      file: evals,
      split: {
        train: QUERIES.filter((entry) => !VALIDATION.includes(entry.query)),
        validation: QUERIES.filter((entry) => VALIDATION.includes(entry.query)),
      },
      iterations: [
        { iteration: 0, description: "Profiles CSV files.", train: rate(4, 6), validation: rate(1, 4) },
        { iteration: 1, description: FIRST, train: rate(5, 6), validation: rate(3, 4) },
        { iteration: 2, description: SECOND, train: rate(6, 6), validation: rate(0, 4) },
      ],
      rejected: [],
      best: { iteration: 1, description: FIRST },
      written: true,
    });
    expect(readFileSync(skillFile, "utf8")).toBe(
      SKILL_MD.replace("description: >-\n  Profiles CSV\n  files.\n", `description: "${FIRST}"\n`),
    );
  });

  it("--iterations bounds the proposals, and a skill without trigger evals or with too few queries is refused before any model call", async () => {
    const { skills } = project();
    const fake = await server();
    const once = await tune(["csv-tool", skills, "--iterations", "1", "--repeat", "1"], fake.url);
    expect(once.stdout).toContain(
      "ITERATION    TRAIN          VALIDATION\n0 (current)  4/6 (66.7%)    1/4 (25%)\n1            5/6 (83.3%)    3/4 (75%)\n\nStopped after 1 iteration.\n",
    );
    expect(proposalRequests(fake)).toHaveLength(1);

    const before = fake.requests.length;
    const bare = project(null);
    expect((await tune(["csv-tool", bare.skills], fake.url)).stderr).toBe(
      `skillset: csv-tool has no trigger evals: ${bare.evals} does not exist. Write about 20 queries there, [{ "query": "…", "should_trigger": true }, …], or name the file with --evals\n`,
    );
    const tiny = project([yes("Check the csv files"), no("Hello there")]);
    expect((await tune(["csv-tool", tiny.skills], fake.url)).stderr).toBe(
      `skillset: ${tiny.evals}: 2 queries cannot be split into train and validation; tuning needs two of a kind at least, and agentskills.io suggests about 20 (8-10 that should trigger, 8-10 near misses)\n`,
    );
    tiny.write(
      "skills/deploy/SKILL.md",
      "---\nname: deploy\ndescription: Deploys the app.\ndisable-model-invocation: true\n---\n\nDeploy.\n",
    );
    expect((await tune(["deploy", tiny.skills], fake.url)).stderr).toBe(
      "skillset: deploy has disable-model-invocation: true: the model never loads it by its description, so there is nothing to tune\n",
    );
    expect(fake.requests.length).toBe(before);
  });

  it("--write changes nothing when a run ended in an error, and the exit code is 1", async () => {
    const { skills, skillFile } = project();
    const words = wordMatchingModel([], () => ({ text: `<description>${FIRST}</description>` }));
    const limited = await startFakeOpenAIServer((request, index) =>
      request.lastUserText === "Hello there" ? { status: 429, message: "Rate limit reached" } : words(request, index),
    );
    servers.push(limited);
    const result = await tune(
      ["csv-tool", skills, "--write", "--iterations", "1", "--repeat", "1", "--concurrency", "1"],
      limited.url,
    );
    expect(result.code).toBe(1);
    const error =
      "csv-tool, query 9: The provider is rate-limiting requests (429): Rate limit reached. Wait a moment and try again.\n";
    expect(result.stderr).toBe(
      `${error}${error}skillset: 2 runs ended in an error, so the numbers are incomplete; ${skillFile} was not changed.\n`,
    );
    expect(readFileSync(skillFile, "utf8")).toBe(SKILL_MD);
  });
});
