// The global command as docs/install.md sets it up: the packed tarball installed with
// `npm install -g` into temporary prefixes (never the machine's own), its `chat`, `eval` and
// `tune` run against a local fake OpenAI server. Packages come from npm's cache or the registry,
// at the versions the repository uses.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import type { FakeProviderServer, FakeRequest } from "../helpers/fake-provider-server.js";
import { tempTree } from "../helpers/skill-tree.js";
import { installedVersion, packPackage, ROOT, run, runOrThrow, type CommandResult } from "./packed-package.js";

const SETUP_TIMEOUT_MS = 300_000;
const INSTALL_TIMEOUT_MS = 240_000;
// A process of the global command starts in seconds, more on a busy machine.
const RUN_TIMEOUT_MS = 120_000;

// The documented one-command set-up, read from docs/install.md so the test and the page agree.
const DOCUMENTED = /^npm install -g \/path\/to\/skillset-[\d.]+\.tgz((?: [@\w/.-]+)+)$/m;

let workDir: string;
let tarball: string;
let server: FakeProviderServer;
let skills: ReturnType<typeof tempTree>;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "skillset-global-"));
  tarball = await packPackage(workDir);
  skills = tempTree("skillset-global-skills-");
  skills.skill("notes", "notes", "Writes meeting notes.");
  server = await startFakeOpenAIServer(answer);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  skills?.cleanup();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, SETUP_TIMEOUT_MS);

/** The scripted model: loads `notes` when asked about notes, then answers; eval's cases likewise. */
function answer(request: FakeRequest) {
  if (request.messages.at(-1)!.role === "tool") return { text: "Notes get a heading per topic." };
  if (request.lastUserText.includes("notes"))
    return { text: "Let me look.", toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] };
  return { text: "Hello from the model." };
}

/** `npm install -g --prefix <prefix> <packages>`, each registry package at the repository's version. */
async function installGlobally(prefix: string, packages: string[]): Promise<void> {
  const pinned = packages.map((name) => (name.endsWith(".tgz") ? name : `${name}@${installedVersion(name)}`));
  await runOrThrow(
    "npm",
    ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", ...pinned],
    workDir,
  );
}

/** Runs the globally installed `skillset` with the fake server's key. */
function skillset(prefix: string, args: string[], cwd = workDir): Promise<CommandResult> {
  return run(path.join(prefix, "bin", "skillset"), args, cwd, {
    OPENAI_API_KEY: "sk-test",
    XDG_DATA_HOME: path.join(prefix, "data"),
  });
}

/** `skillset chat` over the skills, one message per line on stdin. */
async function chat(prefix: string, input: string): Promise<CommandResult> {
  const child = spawn(
    path.join(prefix, "bin", "skillset"),
    ["chat", skills.root, "--model", "openai:gpt-test", "--base-url", server.url, "--max-retries", "0"],
    { cwd: workDir, env: { ...cleanEnv(), OPENAI_API_KEY: "sk-test", XDG_DATA_HOME: path.join(prefix, "data") } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  const code = await new Promise<number>((resolve) => child.on("close", (exit) => resolve(exit ?? -1)));
  return { code, stdout, stderr };
}

/** The environment without npm's variables (they would point at this repository) and colour. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: "1" };
  for (const [key, value] of Object.entries(process.env))
    if (!key.toLowerCase().startsWith("npm_") && key !== "FORCE_COLOR") env[key] = value;
  return env;
}

/** Every installed copy of `name` under `folder`: its node_modules folders, and theirs, searched. */
function copiesOf(folder: string, name: string): string[] {
  const copies: string[] = [];
  for (const modules of readdirSync(folder, { recursive: true, encoding: "utf8" }).filter(
    (entry) => path.basename(entry) === "node_modules",
  ))
    if (existsSync(path.join(folder, modules, name, "package.json"))) copies.push(path.join(modules, name));
  return copies;
}

describe("the documented global set-up (docs/install.md): one npm install -g with the packages chat needs", () => {
  let prefix: string;

  beforeAll(async () => {
    prefix = path.join(workDir, "documented");
    const line = DOCUMENTED.exec(readFileSync(path.join(ROOT, "docs", "install.md"), "utf8"));
    if (!line) throw new Error("docs/install.md has no `npm install -g /path/to/skillset-….tgz <packages>` line");
    await installGlobally(prefix, [tarball, ...line[1]!.trim().split(" ")]);
  }, INSTALL_TIMEOUT_MS);

  it(
    "holds one copy of @langchain/core, and chat answers, loading the skill",
    async () => {
      expect(copiesOf(prefix, "@langchain/core")).toHaveLength(1);
      const result = await chat(prefix, "how are notes written?\n");
      expect(result.stdout).toBe("Let me look.\nNotes get a heading per topic.\n");
      expect(result.stderr).toContain("· loaded notes");
      expect(result.code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "eval runs a case and tune starts (it refuses a skill that is not there, not a missing package)",
    async () => {
      const cases = skills.write(
        "cases.yaml",
        "cases:\n  - id: notes\n    request: write notes\n    expected: notes\n",
      );
      const evalRun = await skillset(prefix, [
        "eval",
        cases,
        skills.root,
        "--model",
        "openai:gpt-test",
        "--base-url",
        server.url,
        "--max-retries",
        "0",
      ]);
      expect(evalRun.code).toBe(0);
      expect(evalRun.stdout).toMatch(/^PASS +notes +notes +notes$/m);
      expect(evalRun.stdout).toContain("1/1 run passed (100%)");
      const tuneRun = await skillset(prefix, ["tune", "no-such-skill", skills.root, "--model", "openai:gpt-test"]);
      expect(tuneRun).toEqual({
        code: 1,
        stdout: "",
        stderr: "skillset: Skill 'no-such-skill' not found. Available skills: notes\n",
      });
    },
    RUN_TIMEOUT_MS,
  );
});

describe("a global install without the packages chat needs, then installed one at a time", () => {
  let prefix: string;

  beforeAll(async () => {
    prefix = path.join(workDir, "one-at-a-time");
    await installGlobally(prefix, [tarball]);
  }, INSTALL_TIMEOUT_MS);

  it(
    "each missing package is named with `npm install -g`; followed, chat prints every answer although @langchain/core is installed several times",
    async () => {
      expect(await chat(prefix, "hello\n")).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "skillset: skillset chat needs the package langchain, which is not installed: npm install -g langchain\n",
      });

      await installGlobally(prefix, ["langchain", "@langchain/openai"]);
      expect(await chat(prefix, "hello\n")).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "skillset: skillset chat needs the package @langchain/langgraph, which is not installed: npm install -g @langchain/langgraph\n",
      });

      await installGlobally(prefix, ["@langchain/langgraph"]);
      expect(copiesOf(prefix, "@langchain/core").length).toBeGreaterThan(1);
      const result = await chat(prefix, "hello\nhow are notes written?\n");
      expect(result.stdout).toBe("Hello from the model.\nLet me look.\nNotes get a heading per topic.\n");
      expect(result.stderr).toContain(
        "saving it needs the package @langchain/langgraph-checkpoint-sqlite: npm install -g @langchain/langgraph-checkpoint-sqlite",
      );
      expect(result.code).toBe(0);
    },
    INSTALL_TIMEOUT_MS,
  );
});
