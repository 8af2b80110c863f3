// `skillset chat` when stdin is not a terminal: the BUILT CLI (`npm run build` first) as a real
// process, one message per line on stdin, answers on stdout, activity and errors on stderr,
// talking through the real provider packages to a local fake server.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { inOrder, type FakeProviderServer, type FakeReply } from "../helpers/fake-provider-server.js";
import { baseEnv, CLI, ROOT, runCli, type CliRunOptions } from "../helpers/run-cli.js";
import { tempFolders, tempTree } from "../helpers/skill-tree.js";

const folders = tempFolders();
const servers: FakeProviderServer[] = [];
const trees: Array<{ cleanup(): void }> = [];
const children: Array<ReturnType<typeof spawn>> = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const server of servers.splice(0)) await server.close();
  for (const tree of trees.splice(0)) tree.cleanup();
  folders.cleanup();
});

async function openai(replies: FakeReply[]): Promise<FakeProviderServer> {
  const server = await startFakeOpenAIServer(inOrder(replies));
  servers.push(server);
  return server;
}

/** Two skills: `notes` (with a reference and a script) and `review-pr` (takes arguments). */
function skills(): string {
  const tree = tempTree("skillset-chat-cli-");
  trees.push(tree);
  tree.skill("notes", "notes", "Writes meeting notes.");
  tree.write("notes/references/format.md", "# Format\n");
  chmodSync(tree.write("notes/scripts/stamp.sh", "#!/bin/sh\necho stamped\n"), 0o755);
  tree.write(
    "review-pr/SKILL.md",
    "---\nname: review-pr\ndescription: Reviews a pull request.\nargument-hint: '[pr-number]'\n---\n\nReview PR $0 carefully.\n",
  );
  return tree.root;
}

/** Runs `skillset chat` with a data folder of its own and the OpenAI key set. */
function chat(args: string[], input: string, options: CliRunOptions & { data?: string } = {}) {
  const data = options.data ?? folders.make("skillset-data-");
  return runCli(["chat", ...args], {
    ...options,
    input,
    env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test", XDG_DATA_HOME: data, ...options.env },
  });
}

/** The header line with its random thread id, and the rest of stderr. */
function splitHeader(stderr: string): { header: string; rest: string } {
  const newline = stderr.indexOf("\n");
  return { header: stderr.slice(0, newline), rest: stderr.slice(newline + 1) };
}

describe("skillset chat, one message per line", { timeout: 120_000 }, () => {
  it("prints each answer on stdout and the skill activity on stderr", async () => {
    const root = skills();
    const server = await openai([
      { text: "Loading the notes skill.", toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
      { toolCalls: [{ name: "read_skill_resource", args: { skill_name: "notes", path: "references/format.md" } }] },
      { text: "Notes start with a heading." },
      { text: "You are welcome." },
    ]);
    const result = await chat(
      [root, "--model", "openai:gpt-test", "--base-url", server.url],
      "how do I write notes?\nthanks\n",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Loading the notes skill.\nNotes start with a heading.\nYou are welcome.\n");
    const { header, rest } = splitHeader(result.stderr);
    expect(header).toMatch(
      /^skillset chat · openai:gpt-test · 2 skills · thread ([0-9a-f]{8}) \(continue with --thread \1\)$/,
    );
    expect(rest).toBe("· loaded notes (2 resources)\n· read notes/references/format.md\n");
    // The model got the skill's instructions and the reference, and the whole conversation on the last turn.
    expect(server.requests[1]!.messages.at(-1)!.text).toContain("# notes");
    expect(server.requests[2]!.messages.at(-1)!.text).toBe("[references/format.md: lines 1-1 of 1]\n# Format");
    expect(server.requests[3]!.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(server.requests[0]!.tools).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
  });

  it("/skills, /<skill> args, /loaded, /unload and /help; lines after /exit are not read", async () => {
    const root = skills();
    const server = await openai([{ text: "Reviewing PR 42." }, { text: "Nothing is loaded now." }]);
    const input = [
      "/skills",
      "/loaded",
      "/review-pr 42",
      "/loaded",
      "/unload review-pr",
      "/loaded",
      "/unload review-pr",
      "what now?",
      "/help",
      "/exit",
      "never sent",
    ].join("\n");
    const result = await chat(
      [root, "--model", "openai:gpt-test", "--base-url", server.url, "--thread", "t1"],
      `${input}\n`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "/notes — Writes meeting notes.",
        "/review-pr [pr-number] — Reviews a pull request.",
        "No skills are loaded.",
        "Reviewing PR 42.",
        "review-pr (0 resources)",
        "No skills are loaded.",
        "Nothing is loaded now.",
        "/skills           the skills you can invoke, with their arguments",
        "/<skill> [args]   invoke a skill: the model gets its instructions with your arguments",
        "/loaded           the skills loaded in this conversation",
        "/unload <skill>   unload a skill: its instructions no longer apply",
        "/help             this list",
        "/exit             leave (also Ctrl-D); Ctrl-C stops an answer",
        "",
      ].join("\n"),
    );
    expect(splitHeader(result.stderr).rest).toBe(
      "· invoked /review-pr 42\n· unloaded review-pr\nskillset: Skill 'review-pr' is not loaded. Loaded: none.\n",
    );
    expect(server.requests).toHaveLength(2);
    // The model got the rendered skill in place of the command, then a note that it no longer applies.
    expect(server.requests[0]!.lastUserText).toContain("Review PR 42 carefully.");
    expect(server.requests[1]!.messages.slice(-2).map((message) => message.text)).toEqual([
      "[The user unloaded the skill 'review-pr' with /unload: its instructions no longer apply.]",
      "what now?",
    ]);
  });

  it("says when a /name is not a skill, and sends it as a message", async () => {
    const root = skills();
    const server = await openai([{ text: "Sure." }]);
    const result = await chat([root, "--model", "openai:gpt-test", "--base-url", server.url], "/review-prs 42\n");
    expect(splitHeader(result.stderr).rest).toBe(
      "! /review-prs is not a skill you can invoke (see /skills); sent as a message\n",
    );
    expect(server.requests[0]!.lastUserText).toBe("/review-prs 42");
    expect(result.stdout).toBe("Sure.\n");
  });

  it("a provider error is one line, the next message is answered, and the exit code says a message failed", async () => {
    const root = skills();
    const server = await openai([{ status: 429, message: "Rate limit reached" }, { text: "Here now." }]);
    const result = await chat(
      [root, "--model", "openai:gpt-test", "--base-url", server.url, "--max-retries", "0"],
      "first\nsecond\n",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("Here now.\n");
    expect(splitHeader(result.stderr).rest).toBe(
      "skillset: The provider is rate-limiting requests (429): Rate limit reached. Wait a moment and try again.\n",
    );
  });

  it("SIGINT (Ctrl-C) stops the answer, not the chat; when no answer is being written, it ends the chat (exit 130)", async () => {
    const root = skills();
    const long = Array.from({ length: 60 }, (_, index) => `word${index}`).join(" ");
    const server = await openai([{ text: long, chunkSize: 6, chunkDelayMs: 50 }, { text: "Still here." }]);
    const child = spawn(
      process.execPath,
      [CLI, "chat", root, "--model", "openai:gpt-test", "--base-url", server.url, "--thread", "t1"],
      {
        cwd: ROOT,
        env: baseEnv({ OPENAI_API_KEY: "sk-test", XDG_DATA_HOME: folders.make("skillset-data-") }),
      },
    );
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    child.stdin.write("tell me a long story\n");
    await until(() => stdout.startsWith("word0"));
    child.kill("SIGINT");
    await until(() => stderr.endsWith("! stopped\n"));
    child.stdin.write("are you there?\n");
    await until(() => stdout.endsWith("Still here.\n"));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const shown = stdout.slice(0, stdout.indexOf("\n"));
    expect(long.startsWith(shown) && shown.length < long.length).toBe(true);
    expect(stdout).toBe(`${shown}\nStill here.\n`);
    await expect.poll(() => server.abandoned).toBe(1);
  });

  it("--thread continues a conversation in another process, loaded skills included, from the data folder", async () => {
    const root = skills();
    const data = folders.make("skillset-data-");
    const server = await openai([
      { toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
      { text: "Loaded." },
      { text: "Still here." },
    ]);
    const args = [root, "--model", "openai:gpt-test", "--base-url", server.url, "--thread", "project-7"];
    const first = await chat(args, "load the notes skill\n", { data });
    expect(first.stdout).toBe("Loaded.\n");
    expect(existsSync(path.join(data, "skillset", "chat-threads.sqlite"))).toBe(true);

    const second = await chat(args, "/loaded\nare you there?\n", { data });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("notes (2 resources)\nStill here.\n");
    expect(splitHeader(second.stderr).header).toBe(
      "skillset chat · openai:gpt-test · 2 skills · thread project-7 resumed: 4 messages, loaded: notes (continue with --thread project-7)",
    );
    expect(server.requests[2]!.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(server.requests[2]!.system).toContain("notes");
  });

  it("runs a skill's script only with --allow-scripts", async () => {
    const root = skills();
    const run = {
      toolCalls: [{ name: "run_skill_script", args: { skill_name: "notes", command: "scripts/stamp.sh" } }],
    };
    const withScripts = await openai([
      { toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
      run,
      { text: "Stamped." },
    ]);
    const allowed = await chat(
      [root, "--model", "openai:gpt-test", "--base-url", withScripts.url, "--allow-scripts"],
      "stamp it\n",
    );
    expect(splitHeader(allowed.stderr).rest).toMatch(
      /^· loaded notes \(2 resources\)\n· ran scripts\/stamp\.sh in notes \(exit 0, \d+ ms\)\n$/,
    );
    expect(withScripts.requests[2]!.messages.at(-1)!.text).toMatch(
      /^\$ scripts\/stamp\.sh\n\(exited with code 0 after \d+ ms\)\n--- stdout ---\nstamped$/,
    );

    const without = await openai([{ text: "No scripts here." }]);
    await chat([root, "--model", "openai:gpt-test", "--base-url", without.url], "stamp it\n");
    expect(without.requests[0]!.tools).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
  });

  it("--files gives the model read-only file tools over the working folder, and nothing outside it", async () => {
    const root = skills();
    const work = folders.make("skillset-work-");
    writeFileSync(path.join(work, "todo.txt"), "buy milk\n");
    const server = await openai([
      {
        toolCalls: [
          { name: "read_file", args: { path: "todo.txt" } },
          { name: "read_file", args: { path: "../outside.txt" } },
        ],
      },
      { text: "You need milk." },
    ]);
    const result = await chat(
      [root, "--model", "openai:gpt-test", "--base-url", server.url, "--files"],
      "what is on my list?\n",
      { cwd: work },
    );
    expect(server.requests[0]!.tools).toEqual([
      "ls",
      "read_file",
      "glob",
      "grep",
      "load_skill",
      "unload_skill",
      "read_skill_resource",
    ]);
    expect(server.requests[1]!.messages.slice(-2).map((message) => message.text)).toEqual([
      "[todo.txt: lines 1-1 of 1]\nbuy milk",
      `Error: ${path.dirname(work)}/outside.txt does not exist.`,
    ]);
    expect(splitHeader(result.stderr).rest).toBe(
      `· read_file todo.txt\n! read_file ../outside.txt failed: ${path.dirname(work)}/outside.txt does not exist.\n`,
    );
  });

  it("--allow-code offers run_code, whose code imports a loaded skill's module and, with --files, reads files", async () => {
    const tree = tempTree("skillset-chat-code-");
    trees.push(tree);
    tree.write(
      "lists/SKILL.md",
      "---\nname: lists\ndescription: Counts list items.\nmetadata:\n  entrypoint: count.ts\n---\n\nUse the module.\n",
    );
    tree.write(
      "lists/count.ts",
      'export const countItems = (text: string): number => text.trim().split("\\n").length;\n',
    );
    const work = folders.make("skillset-work-");
    writeFileSync(path.join(work, "todo.txt"), "buy milk\ncall mum\n");
    const code =
      'import { countItems } from "@/skills/lists"; const page = await tools.readFile({ path: "todo.txt" }); return countItems(page.split("\\n").slice(1).join("\\n"));';
    const server = await openai([
      { toolCalls: [{ name: "load_skill", args: { skill_name: "lists" } }] },
      { toolCalls: [{ name: "run_code", args: { code } }] },
      { text: "Two items." },
    ]);
    const result = await chat(
      [tree.root, "--model", "openai:gpt-test", "--base-url", server.url, "--files", "--allow-code"],
      "how many items?\n",
      { cwd: work },
    );
    expect(splitHeader(result.stderr).rest).toMatch(
      /^· loaded lists \(1 resource\)\n· ran code \(1 tool call, imported @\/skills\/lists\/count\.ts, \d+ ms\)\n$/,
    );
    expect(server.requests[0]!.tools).toContain("run_code");
    expect(server.requests[2]!.messages.at(-1)!.text).toBe("Result:\n2");
  });

  it("talks to Anthropic's API the same way", async () => {
    const root = skills();
    const server = await startFakeAnthropicServer(
      inOrder([
        { text: "Loading.", toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
        { text: "Done." },
      ]),
    );
    servers.push(server);
    const result = await chat([root, "--model", "anthropic:claude-test", "--base-url", server.url], "notes please\n");
    expect(result.stdout).toBe("Loading.\nDone.\n");
    expect(splitHeader(result.stderr).rest).toBe("· loaded notes (2 resources)\n");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-test");
    expect(server.requests[0]!.model).toBe("claude-test");
  });
});

describe("skillset chat, setting up", { timeout: 120_000 }, () => {
  it("names the provider package to install when it is missing", async () => {
    const result = await chat([skills(), "--model", "anthropic:claude-test"], "hi\n", {
      hidePackages: ["@langchain/anthropic"],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "skillset: --model anthropic:claude-test needs the package @langchain/anthropic, which is not installed: npm install @langchain/anthropic\n",
    );
  });

  it("names LangChain when it is missing, while the other commands still work", async () => {
    const root = skills();
    const result = await chat([root, "--model", "openai:gpt-test"], "hi\n", { hidePackages: ["langchain"] });
    expect(result.stderr).toBe(
      "skillset: skillset chat needs the package langchain, which is not installed: npm install langchain\n",
    );
    expect(result.code).toBe(1);
    expect((await runCli(["list", root], { hidePackages: ["langchain"] })).code).toBe(0);
  });

  it("without the SQLite checkpointer, --thread fails with one line, and a chat without it is kept in memory", async () => {
    const root = skills();
    const server = await openai([{ text: "Hello." }]);
    const args = [root, "--model", "openai:gpt-test", "--base-url", server.url];
    const hide = { hidePackages: ["better-sqlite3"] };
    const resumed = await chat([...args, "--thread", "t1"], "hi\n", hide);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toBe(
      "skillset: --thread needs the package better-sqlite3, which is not installed: npm install better-sqlite3\n",
    );

    const fresh = await chat(args, "hi\n", hide);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe("Hello.\n");
    expect(fresh.stderr).toMatch(
      /^This conversation is kept in memory only: saving it needs the package better-sqlite3: npm install better-sqlite3\nskillset chat · openai:gpt-test · 2 skills · thread [0-9a-f]{8}\n$/,
    );
  });

  it.each([
    [
      ["--model", "gpt-4o"],
      2,
      "skillset: --model must be <provider>:<model>, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5 (got 'gpt-4o')\n",
    ],
    [
      ["--model", "acme:big"],
      2,
      "skillset: Unknown model provider 'acme': use one of openai, anthropic, azure_openai, langsmith, cohere, google, google-vertexai, google-vertexai-web, google-genai, ollama, mistralai, mistral, groq, bedrock, aws, deepseek, xai, cerebras, fireworks, together, perplexity\n",
    ],
    [[], 2, "skillset: required option '--model <provider:model>' not specified (see `skillset chat --help`)\n"],
    [
      ["--model", "openai:gpt-test", "--timeout", "0"],
      2,
      "skillset: --timeout must be a number of seconds greater than 0 (got '0')\n",
    ],
    [
      ["--model", "openai:gpt-test", "--thread", "a b"],
      2,
      "skillset: --thread must be 1 to 128 letters, digits, '.', ':', '_' or '-' (got 'a b')\n",
    ],
  ])("refuses %j with exit %i and one line", async (args, code, stderr) => {
    const result = await chat([skills(), ...args], "hi\n");
    expect(result).toEqual({ code, stdout: "", stderr });
  });

  it("asks for the API key when it is not set and no --base-url is given", async () => {
    const result = await chat([skills(), "--model", "openai:gpt-test"], "hi\n", { env: { OPENAI_API_KEY: undefined } });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "skillset: OPENAI_API_KEY is not set: export your openai API key to use --model openai:gpt-test\n",
    });
  });
});
