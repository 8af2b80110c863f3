// `skillset eval` end to end: the BUILT CLI (`npm run build` first) runs cases through the real
// agent and provider packages against a local server whose choices are scripted per request, so
// every number of the report is known: pass/fail, precision, recall, confusions and tokens.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer, FakeReply, FakeRequest, FakeScript } from "../helpers/fake-provider-server.js";
import { runCli } from "../helpers/run-cli.js";
import { tempFolders, tempTree } from "../helpers/skill-tree.js";

const folders = tempFolders();
const servers: FakeProviderServer[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const tree of trees.splice(0)) tree.cleanup();
  folders.cleanup();
});

/** Three skills, and a cases file beside them. */
function project(cases: string) {
  const tree = tempTree("skillset-eval-");
  trees.push(tree);
  tree.skill("skills/csv-tool", "csv-tool", "Profiles CSV files.");
  tree.skill("skills/release-notes", "release-notes", "Drafts release notes from git history.");
  tree.skill("skills/api-review", "api-review", "Reviews an HTTP API's error responses.");
  return { skills: path.join(tree.root, "skills"), cases: tree.write("cases.yaml", cases), root: tree.root };
}

const CASES = `cases:
  - id: profile
    request: Check orders.csv
    expected: csv-tool
  - id: release
    request: Write release notes for v2
    expected: release-notes
  - id: chitchat
    request: Hello
    expected: none
  - id: both
    request: Profile data.csv and draft the notes
    expected: [csv-tool, release-notes]
  - id: over
    request: What is in my API log?
    expected: none
  - id: follow-up
    request: I have a file.
    turns:
      - It is a CSV, profile it.
    expected: csv-tool
  - id: invoked
    request: /csv-tool data.csv
    expected: csv-tool
`;

const load = (...skills: string[]): FakeReply => ({
  toolCalls: skills.map((skill) => ({ name: "load_skill", args: { skill_name: skill } })),
  usage: { input: 100, output: 10 },
});

/** The model's scripted choices, by the user's request; after a tool result it answers "Done.". */
function choices(extra: Record<string, FakeReply> = {}): FakeScript {
  const byRequest: Record<string, FakeReply> = {
    "Check orders.csv": load("csv-tool"),
    "Write release notes for v2": load("api-review"),
    Hello: { text: "Hi.", usage: { input: 50, output: 3 } },
    "Profile data.csv and draft the notes": load("csv-tool", "release-notes"),
    "What is in my API log?": load("api-review"),
    "I have a file.": { text: "What kind of file?", usage: { input: 50, output: 3 } },
    "It is a CSV, profile it.": load("csv-tool"),
    ...extra,
  };
  return (request: FakeRequest) => {
    if (request.messages.at(-1)!.role === "tool") return { text: "Done.", usage: { input: 150, output: 5 } };
    // A user's /csv-tool arrives as the skill's rendered instructions.
    if (request.lastUserText.startsWith('<skill name="csv-tool"'))
      return { text: "Profiled.", usage: { input: 80, output: 4 } };
    return byRequest[request.lastUserText] ?? { status: 400, message: `unscripted request: ${request.lastUserText}` };
  };
}

async function server(provider: "openai" | "anthropic", script: FakeScript): Promise<FakeProviderServer> {
  const started = provider === "openai" ? await startFakeOpenAIServer(script) : await startFakeAnthropicServer(script);
  servers.push(started);
  return started;
}

function evaluate(args: string[], provider: "openai" | "anthropic" = "openai", cwd?: string) {
  const model = provider === "openai" ? "openai:gpt-test" : "anthropic:claude-test";
  return runCli(["eval", ...args, "--model", model, "--max-retries", "0"], {
    env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" },
    ...(cwd ? { cwd } : {}),
  });
}

const REPORT = [
  "RESULT  CASE       EXPECTED                 LOADED",
  "PASS    profile    csv-tool                 csv-tool",
  "FAIL    release    release-notes            api-review",
  "PASS    chitchat   none                     none",
  "PASS    both       csv-tool, release-notes  csv-tool, release-notes",
  "FAIL    over       none                     api-review",
  "PASS    follow-up  csv-tool                 csv-tool",
  "PASS    invoked    csv-tool                 csv-tool",
  "",
  "5/7 runs passed (71.4%) · precision 0.714 (5/7 loads expected) · recall 0.833 (5/6 expected skills loaded)",
  "Confusions (expected → loaded instead):",
  "  none → api-review  ×1",
  "  release-notes → api-review  ×1",
  "Tokens: 1,515 (1,430 input, 85 output) over 13 model calls",
  "",
].join("\n");

describe("skillset eval", { timeout: 120_000 }, () => {
  it.each(["openai", "anthropic"] as const)(
    "reports each case and the totals, with numbers known from the scripted choices (%s)",
    async (provider) => {
      const { skills, cases } = project(CASES);
      const fake = await server(provider, choices());
      const result = await evaluate([cases, skills, "--base-url", fake.url], provider);
      expect(result).toEqual({ code: 0, stdout: REPORT, stderr: "" });
      // Every case ran in a thread of its own: no request carries another case's messages.
      expect(
        fake.requests
          .filter((request) => request.messages[0]!.text === "I have a file.")
          .map((request) => request.messages.length),
      ).toEqual([1, 3, 5]);
    },
  );

  it("--json prints exactly the documented shape, and --min-pass sets the exit code", async () => {
    const { skills, cases } = project(CASES);
    const fake = await server("openai", choices());
    const passing = await evaluate([cases, skills, "--base-url", fake.url, "--json", "--min-pass", "0.7"]);
    expect(passing.code).toBe(0);
    expect(passing.stderr).toBe("");
    const entry = (id: string, request: string, expected: string[], loaded: string[], pass: boolean) => ({
      id,
      request,
      expected,
      loaded,
      pass,
    });
    const byCase = (id: string, passed: number, precision: number, recall: number) => ({
      id,
      runs: 1,
      passed,
      pass_rate: passed,
      precision,
      recall,
    });
    expect(JSON.parse(passing.stdout)).toEqual({
      cases: [
        entry("profile", "Check orders.csv", ["csv-tool"], ["csv-tool"], true),
        entry("release", "Write release notes for v2", ["release-notes"], ["api-review"], false),
        entry("chitchat", "Hello", [], [], true),
        entry(
          "both",
          "Profile data.csv and draft the notes",
          ["csv-tool", "release-notes"],
          ["csv-tool", "release-notes"],
          true,
        ),
        entry("over", "What is in my API log?", [], ["api-review"], false),
        entry("follow-up", "I have a file.", ["csv-tool"], ["csv-tool"], true),
        entry("invoked", "/csv-tool data.csv", ["csv-tool"], ["csv-tool"], true),
      ],
      by_case: [
        byCase("profile", 1, 1, 1),
        byCase("release", 0, 0, 0),
        byCase("chitchat", 1, 1, 1),
        byCase("both", 1, 1, 1),
        byCase("over", 0, 0, 1),
        byCase("follow-up", 1, 1, 1),
        byCase("invoked", 1, 1, 1),
      ],
      summary: { passed: 5, total: 7, precision: 0.7143, recall: 0.8333 },
    });
    expect(Object.keys(JSON.parse(passing.stdout).cases[0])).toEqual(["id", "request", "expected", "loaded", "pass"]);

    const failing = await evaluate([cases, skills, "--base-url", fake.url, "--json", "--min-pass", "75%"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toBe(passing.stdout);
    expect(failing.stderr).toBe("skillset: 5/7 runs passed, under --min-pass 75%.\n");
  });

  it("--repeat runs each case n times and shows how the runs differed", async () => {
    const { skills, cases } = project(
      "- id: maybe\n  request: Maybe a CSV?\n  expected: csv-tool\n- id: hello\n  request: Hello\n  expected: none\n",
    );
    let asked = 0;
    // Loads the skill on the first and third time it is asked, not on the second.
    const flaky: FakeScript = (request, index) => {
      if (request.lastUserText === "Maybe a CSV?" && request.messages.at(-1)!.role === "user")
        return ++asked % 2 === 1 ? load("csv-tool") : { text: "No idea.", usage: { input: 40, output: 2 } };
      return choices()(request, index);
    };
    const flakyServer = await server("openai", flaky);
    const result = await evaluate([
      cases,
      skills,
      "--base-url",
      flakyServer.url,
      "--repeat",
      "3",
      "--concurrency",
      "1",
      "--min-pass",
      "0.8",
    ]);
    expect(result.stdout).toBe(
      [
        "RESULT  CASE   EXPECTED  LOADED",
        "2/3     maybe  csv-tool  csv-tool ×2; none ×1",
        "3/3     hello  none      none",
        "",
        "5/6 runs passed (83.3%) · precision 1.000 (2/2 loads expected) · recall 0.667 (2/3 expected skills loaded)",
        "Confusions (expected → loaded instead):",
        "  csv-tool → none  ×1",
        "Tokens: 731 (690 input, 41 output) over 8 model calls",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(0);
  });

  it("a run that ends in a provider error is reported, fails, and makes the exit code 1", async () => {
    const { skills, cases } = project(
      "- id: ok\n  request: Hello\n  expected: none\n- id: limited\n  request: Check orders.csv\n  expected: csv-tool\n",
    );
    const fake = await server(
      "openai",
      choices({ "Check orders.csv": { status: 429, message: "Rate limit reached" } }),
    );
    const result = await evaluate([cases, skills, "--base-url", fake.url, "--concurrency", "1"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Case limited: The provider is rate-limiting requests (429): Rate limit reached. Wait a moment and try again.\n" +
        "skillset: 1 run ended in an error, so the numbers are incomplete.\n",
    );
    expect(result.stdout).toContain(
      "ERROR   limited  csv-tool  error: The provider is rate-limiting requests (429): Rate limit reached. Wait a moment and try again.\n\n1/2 runs passed (50%) · precision 1.000 (0/0 loads expected) · recall 1.000 (0/0 expected skills loaded)\n",
    );
  });

  it("a server answering web pages: every run fails with the hint that it is not the API, and nothing is scored", async () => {
    const { skills, cases } = project(
      "- id: ok\n  request: Hello\n  expected: none\n- id: csv\n  request: Check orders.csv\n  expected: csv-tool\n",
    );
    const fake = await server("openai", () => ({ raw: "<html><body>Welcome</body></html>", contentType: "text/html" }));
    const result = await evaluate([cases, skills, "--base-url", fake.url, "--concurrency", "1"]);
    expect(result.code).toBe(1);
    const hint = `${fake.url} answered with a web page (text/html), not the provider's API: is it the API's address? (an OpenAI-compatible server's usually ends in /v1; give it with --base-url)`;
    expect(result.stderr).toBe(
      `Case ok: ${hint}\nCase csv: ${hint}\nskillset: 2 runs ended in an error, so the numbers are incomplete.\n`,
    );
    expect(result.stdout).toContain(
      "\n0/2 runs passed (0%) · precision n/a (0/0 loads expected) · recall n/a (0/0 expected skills loaded)\n",
    );
    const json = await evaluate([cases, skills, "--base-url", fake.url, "--json"]);
    expect(JSON.parse(json.stdout).summary).toEqual({ passed: 0, total: 2, precision: null, recall: null });
  });

  it("a refused API key stops the eval at once with one line", async () => {
    const { skills, cases } = project(CASES);
    const fake = await server("openai", () => ({ status: 401, message: "Incorrect API key provided" }));
    const result = await evaluate([cases, skills, "--base-url", fake.url, "--concurrency", "1"]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "skillset: Case profile: The provider refused the request (401): Incorrect API key provided. Check OPENAI_API_KEY.\n",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses a cases file with problems, or expecting a skill no source has, before calling the model", async () => {
    const { skills, cases, root } = project("- request: Hello\n  expected: csv-tools\n");
    const fake = await server("openai", choices());
    const unknown = await evaluate([cases, skills, "--base-url", fake.url]);
    expect(unknown).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: ${cases}: case 1 (case-1): expects the skill 'csv-tools', which none of the sources has (skills: api-review, csv-tool, release-notes)\n`,
    });
    const broken = path.join(root, "broken.yaml");
    writeFileSync(broken, "- request: Hello\n");
    expect(await evaluate([broken, skills, "--base-url", fake.url, "--json"])).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ error: { code: "invalid-cases", message: `${broken}: case 1 (case-1): 'expected' is missing: give the skill that should be loaded, a list of them, or none` } }, null, 2)}\n`,
      stderr: `skillset: ${broken}: case 1 (case-1): 'expected' is missing: give the skill that should be loaded, a list of them, or none\n`,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("reports a cases file's structural problems and its unknown skills at once", async () => {
    const { skills, cases } = project(
      "- id: typo\n  request: Check orders.csv\n  expected: csv-tools\n- id: bad\n  request: Hello\n  expect: none\n",
    );
    const fake = await server("openai", choices());
    const result = await evaluate([cases, skills, "--base-url", fake.url]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `skillset: ${cases} has 3 problems:\n` +
        "  case 1 (typo): expects the skill 'csv-tools', which none of the sources has (skills: api-review, csv-tool, release-notes)\n" +
        "  case 2 (bad): unknown key 'expect'; a case has id, request, expected, turns and draft\n" +
        "  case 2 (bad): 'expected' is missing: give the skill that should be loaded, a list of them, or none\n",
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("skillset eval --generate", { timeout: 120_000 }, () => {
  const drafts: FakeScript = (request) => {
    const prompt = request.lastUserText;
    if (prompt.startsWith("Skill name: api-review"))
      return { text: "Sorry, I cannot help with that.", usage: { input: 30, output: 6 } };
    if (prompt.startsWith("Skill name: csv-tool"))
      return {
        text: '```json\n["What columns are in orders.csv?", "Check sales.csv for gaps"]\n```',
        usage: { input: 30, output: 12 },
      };
    if (prompt.startsWith("Skill name: release-notes"))
      return {
        text: '["What changed since v1.2?", "Draft notes for the 2.0 release", "a third"]',
        usage: { input: 30, output: 12 },
      };
    return { text: '["Format this JSON", "What is a CSV?", "Tag v2 in git"]', usage: { input: 60, output: 15 } };
  };

  it("drafts cases from the skills' descriptions, marked as drafts, into a new file that eval then reads", async () => {
    const { skills, root } = project(CASES);
    const fake = await server("openai", drafts);
    const file = path.join(root, "drafted.yaml");
    const result = await evaluate([file, skills, "--base-url", fake.url, "--generate"]);
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `Drafted 8 cases from 3 skills into ${file} (195 tokens); review them, then delete \`draft: true\`.\nNo usable requests came back for api-review: their cases say TODO.\n`,
    });
    expect(readFileSync(file, "utf8")).toBe(
      [
        "# Skill-selection cases DRAFTED by `skillset eval --generate` with openai:gpt-test from the skills' descriptions.",
        "# They are drafts: read every case, fix the requests and expected skills, add the cases that",
        "# matter to you, then delete `draft: true`. Run them with: skillset eval <this file> [sources...] --model …",
        "cases:",
        "  - id: api-review-1",
        '    request: "TODO: a request that should load api-review"',
        "    expected: api-review",
        "    draft: true",
        "  - id: csv-tool-1",
        "    request: What columns are in orders.csv?",
        "    expected: csv-tool",
        "    draft: true",
        "  - id: csv-tool-2",
        "    request: Check sales.csv for gaps",
        "    expected: csv-tool",
        "    draft: true",
        "  - id: release-notes-1",
        "    request: What changed since v1.2?",
        "    expected: release-notes",
        "    draft: true",
        "  - id: release-notes-2",
        "    request: Draft notes for the 2.0 release",
        "    expected: release-notes",
        "    draft: true",
        "  - id: no-skill-1",
        "    request: Format this JSON",
        "    expected: none",
        "    draft: true",
        "  - id: no-skill-2",
        "    request: What is a CSV?",
        "    expected: none",
        "    draft: true",
        "  - id: no-skill-3",
        "    request: Tag v2 in git",
        "    expected: none",
        "    draft: true",
        "",
      ].join("\n"),
    );
    // The model was asked once per skill and once for requests no skill is for, with the descriptions.
    expect(fake.requests.map((request) => request.lastUserText.split("\n")[0])).toEqual([
      "Skill name: api-review",
      "Skill name: csv-tool",
      "Skill name: release-notes",
      "Skills:",
    ]);

    const again = await evaluate([file, skills, "--base-url", fake.url, "--generate"]);
    expect(again).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: ${file} already exists; --generate does not overwrite it: name a new file, or - for stdout\n`,
    });

    const evaluated = await evaluate([
      file,
      skills,
      "--base-url",
      (await server("openai", () => ({ text: "No skill needed." }))).url,
      "--json",
    ]);
    expect(evaluated.stderr).toBe("8 cases are drafts (draft: true): review them before trusting the numbers.\n");
    expect(JSON.parse(evaluated.stdout).summary).toEqual({ passed: 3, total: 8, precision: 1, recall: 0 });
  });

  it("prints the drafts on stdout for -", async () => {
    const { skills } = project(CASES);
    const fake = await server("openai", drafts);
    const result = await evaluate(["-", skills, "--base-url", fake.url, "--generate"], "openai", folders.make());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "  - id: csv-tool-1\n    request: What columns are in orders.csv?\n    expected: csv-tool\n    draft: true\n",
    );
    expect(existsSync("-")).toBe(false);
  });
});
