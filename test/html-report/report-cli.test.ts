// `--html FILE` as a user runs it: the BUILT CLI (`npm run build` first) against the tests' local
// OpenAI-compatible server (eval, tune) or a planted library (doctor). The page written must be
// exactly the renderer's view of the object `--json` printed in the same run, with the command,
// the model and the date (fixed by SOURCE_DATE_EPOCH) in its header.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { doctorPage } from "../../src/cli/html-report/doctor-page.js";
import { reportProvenance } from "../../src/cli/html-report/report-provenance.js";
import { scenarioEvalPage } from "../../src/cli/html-report/scenario-eval-page.js";
import { triggerEvalPage } from "../../src/cli/html-report/trigger-eval-page.js";
import { tunePage } from "../../src/cli/html-report/tune-page.js";
import { runCli } from "../helpers/run-cli.js";
import { plantedLibrary } from "../doctor/library-fixture.js";
import { wordMatchingModel } from "../eval/trigger-model.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer, FakeReply } from "../helpers/fake-provider-server.js";
import { tempTree } from "../helpers/skill-tree.js";

const servers: FakeProviderServer[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const tree of trees.splice(0)) tree.cleanup();
});

const EPOCH = "1795701787";
const MODEL = "openai:gpt-test";
const yes = (query: string) => ({ query, should_trigger: true });
const no = (query: string) => ({ query, should_trigger: false });
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

function project() {
  const tree = tempTree("skillset-html-");
  trees.push(tree);
  tree.skill("skills/csv-tool", "csv-tool", "Profiles CSV files.");
  tree.skill("skills/release-notes", "release-notes", "Drafts release notes from git history.");
  tree.write("skills/csv-tool/evals/eval_queries.json", JSON.stringify(QUERIES));
  const cases = tree.write(
    "cases.yaml",
    "- id: profile\n  request: Check the csv files\n  expected: csv-tool\n- id: notes\n  request: Draft the release notes\n  expected: release-notes\n- id: sheet\n  request: Summarise my spreadsheet\n  expected: csv-tool\n",
  );
  return { root: tree.root, skills: path.join(tree.root, "skills"), cases, page: path.join(tree.root, "report.html") };
}

async function server(proposals: FakeReply[] = []): Promise<FakeProviderServer> {
  const started = await startFakeOpenAIServer(
    wordMatchingModel([], () => proposals.shift() ?? { status: 400, message: "no more proposals scripted" }),
  );
  servers.push(started);
  return started;
}

// The CLI with a key for the local server and the pages' date fixed.
const run = (args: string[], cwd?: string) =>
  runCli(args, { env: { OPENAI_API_KEY: "sk-test", SOURCE_DATE_EPOCH: EPOCH }, ...(cwd ? { cwd } : {}) });

const withModel = (args: string[], url: string) => [...args, "--model", MODEL, "--max-retries", "0", "--base-url", url];

describe("--html", { timeout: 120_000 }, () => {
  it("eval on trigger evals writes the page of the very report --json prints, and says where on stderr", async () => {
    const { skills, page } = project();
    const fake = await server();
    const args = withModel(["eval", skills, skills, "--repeat", "1", "--json", "--html", page], fake.url);
    const result = await run(args);
    expect(result.stderr).toBe(`Wrote the HTML report to ${page}.\n`);
    expect(result.code).toBe(0);
    const html = readFileSync(page, "utf8");
    expect(html).toBe(
      triggerEvalPage(JSON.parse(result.stdout), reportProvenance(MODEL, args, { SOURCE_DATE_EPOCH: EPOCH })),
    );
    expect(html).toContain("<h1>5 of 10 queries fail</h1>");
    expect(html).toContain('<time datetime="2026-11-26T14:03:07.000Z">2026-11-26 14:03 UTC</time>');
    expect(html).toContain("<dt>Model</dt><dd><code>openai:gpt-test</code></dd>");
  });

  it("eval on a cases file writes the cases page from the report with each case's pass rate, precision and recall", async () => {
    const { skills, cases, page } = project();
    const fake = await server();
    const args = withModel(["eval", cases, skills, "--json", "--html", page], fake.url);
    const result = await run(args);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.by_case).toEqual([
      { id: "profile", runs: 1, passed: 1, pass_rate: 1, precision: 1, recall: 1 },
      { id: "notes", runs: 1, passed: 1, pass_rate: 1, precision: 1, recall: 1 },
      { id: "sheet", runs: 1, passed: 0, pass_rate: 0, precision: 1, recall: 0 },
    ]);
    const html = readFileSync(page, "utf8");
    expect(html).toBe(scenarioEvalPage(report, reportProvenance(MODEL, args, { SOURCE_DATE_EPOCH: EPOCH })));
    expect(html).toContain("<h1>1 of 3 runs fails</h1>");
  });

  it("tune writes the page of its --json report: every iteration, the chosen one, the diff", async () => {
    const { skills, page } = project();
    const fake = await server([
      {
        text: "<description>Profile tabular data: summarise a spreadsheet or table, its columns and missing values.</description>",
      },
    ]);
    const args = withModel(
      ["tune", "csv-tool", skills, "--iterations", "1", "--repeat", "1", "--json", "--html", page],
      fake.url,
    );
    const result = await run(args);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.best.iteration).toBe(1);
    const html = readFileSync(page, "utf8");
    expect(html).toBe(tunePage(report, reportProvenance(MODEL, args, { SOURCE_DATE_EPOCH: EPOCH })));
    expect(html).toMatch(/<h1>Iteration 1 did best: validation [\d.]+%, was [\d.]+%<\/h1>/);
    expect(html).toContain("<del>");
  });

  it("doctor writes the page of its --json report, with no model in its header", async () => {
    const library = plantedLibrary();
    trees.push(library);
    const page = path.join(library.root, "doctor.html");
    const args = ["doctor", library.user, library.project, "--no-threads", "--json", "--html", page];
    const result = await run(args, library.root);
    expect(result.code).toBe(1);
    const html = readFileSync(page, "utf8");
    expect(html).toBe(
      doctorPage(JSON.parse(result.stdout), reportProvenance(undefined, args, { SOURCE_DATE_EPOCH: EPOCH })),
    );
    expect(html).toContain("<h1>1 error, 7 warnings, 0 info in 7 skills</h1>");
    expect(html).not.toContain("<dt>Model</dt>");
  });

  it("refuses --html with --generate, and reports a file it cannot write", async () => {
    const { skills, root } = project();
    const generate = await run([
      "eval",
      path.join(root, "new.yaml"),
      skills,
      "--generate",
      "--html",
      "x.html",
      "--model",
      MODEL,
    ]);
    expect(generate).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --html writes the report of an eval; --generate drafts cases and has none\n",
    });
    const library = plantedLibrary();
    trees.push(library);
    const missing = path.join(library.root, "no-such-folder", "doctor.html");
    const unwritable = await run(
      ["doctor", library.project, "--no-threads", "--fail-on", "none", "--html", missing],
      library.root,
    );
    expect(unwritable.code).toBe(1);
    // The report is printed before the page is written, so a failed write loses nothing.
    expect(unwritable.stdout).toContain("\nCatalog: ");
    expect(unwritable.stderr).toMatch(new RegExp(`^skillset: Cannot write the HTML report to ${missing}: ENOENT`));
    expect(existsSync(missing)).toBe(false);
  });
});
