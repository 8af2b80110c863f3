// `skillset chat` at a terminal: the BUILT CLI (`npm run build` first) in a real pseudo-terminal
// (tmux), typed at as a user would. The answer is seen arriving, / commands work, Ctrl-C stops
// the answer and not the program, and two Ctrl-C at an empty prompt leave. Without tmux these
// tests skip (with a notice), except under CI=true, where they fail.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { inOrder, type FakeProviderServer, type FakeReply } from "../helpers/fake-provider-server.js";
import { CLI, ROOT } from "../helpers/run-cli.js";
import { tempFolders, tempTree } from "../helpers/skill-tree.js";
import { isCI } from "../helpers/test-environment.js";
import { hasTmux, startTerminal, type TmuxTerminal } from "./tmux-terminal.js";

const useTmux = hasTmux() || isCI();
if (!useTmux) console.warn("Skipping the chat's terminal tests: tmux is not on the PATH (CI=true requires it).");

const folders = tempFolders();
const open: Array<{ close(): Promise<void> }> = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
  for (const tree of trees.splice(0)) tree.cleanup();
  folders.cleanup();
});

const HEADER = "skillset chat · openai:gpt-test · 1 skill · thread t1 (continue with --thread t1)";
const HINT = "/help lists the commands; Ctrl-C stops an answer; /exit or Ctrl-D leaves.";

async function chatAt(replies: FakeReply[]): Promise<{ terminal: TmuxTerminal; server: FakeProviderServer }> {
  const tree = tempTree("skillset-chat-tty-");
  trees.push(tree);
  tree.skill("notes", "notes", "Writes meeting notes.");
  const server = await startFakeOpenAIServer(inOrder(replies));
  open.push(server);
  const env = { NO_COLOR: "1", OPENAI_API_KEY: "sk-test", XDG_DATA_HOME: folders.make("skillset-data-") };
  const terminal = await startTerminal(
    [
      process.execPath,
      CLI,
      "chat",
      tree.root,
      "--model",
      "openai:gpt-test",
      "--base-url",
      server.url,
      "--thread",
      "t1",
    ],
    env,
    ROOT,
  );
  open.push(terminal);
  await terminal.waitFor((screen) => screen.at(-1) === ">", "the first prompt");
  return { terminal, server };
}

describe.skipIf(!useTmux)("skillset chat at a terminal", { timeout: 120_000 }, () => {
  it("shows the answer as it streams, the skill activity, and the / commands' output; Ctrl-D leaves", async () => {
    const answer = "Notes start with the date, then the decisions, then who does what by when.";
    const { terminal } = await chatAt([
      { text: "Loading.", toolCalls: [{ name: "load_skill", args: { skill_name: "notes" } }] },
      { text: answer, chunkSize: 6, chunkDelayMs: 120 },
    ]);
    await terminal.send("how do I write notes?", "Enter");
    // Part of the answer is on the screen before the rest has arrived.
    const partial = await terminal.waitFor(
      (screen) => screen.some((line) => line.startsWith("Notes start") && line !== answer),
      "part of the answer",
    );
    expect(partial.some((line) => line === answer)).toBe(false);
    await terminal.waitFor(
      (screen) => screen.includes(answer) && screen.at(-1) === ">",
      "the whole answer and the next prompt",
    );
    await terminal.send("/loaded", "Enter");
    await terminal.waitFor((screen) => screen.at(-1) === ">" && screen.includes("notes (0 resources)"), "/loaded");
    await terminal.send("/skills", "Enter");
    const screen = await terminal.waitFor(
      (lines) => lines.at(-1) === ">" && lines.includes("/notes — Writes meeting notes."),
      "/skills",
    );
    expect(screen).toEqual([
      HEADER,
      HINT,
      "> how do I write notes?",
      "Loading.",
      "· loaded notes (0 resources)",
      answer,
      "> /loaded",
      "notes (0 resources)",
      "> /skills",
      "/notes — Writes meeting notes.",
      ">",
    ]);
    // Ctrl-D at the prompt leaves, on a line of its own.
    await terminal.send("C-d");
    expect((await terminal.waitFor((lines) => lines.includes("[exit 0]"), "the exit")).slice(-2)).toEqual([
      ">",
      "[exit 0]",
    ]);
  });

  it("Ctrl-C stops the answer being written, not the program: the next message is answered", async () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");
    const { terminal, server } = await chatAt([
      { text: long, chunkSize: 6, chunkDelayMs: 100 },
      { text: "Still here." },
    ]);
    await terminal.send("tell me a long story", "Enter");
    await terminal.waitFor((screen) => screen.some((line) => line.startsWith("word0 word1")), "the answer to start");
    await terminal.send("C-c");
    const stopped = await terminal.waitFor(
      (screen) => screen.at(-1) === ">" && screen.includes("! stopped"),
      "the stop and a new prompt",
    );
    const shown = stopped[stopped.indexOf("> tell me a long story") + 1]!;
    expect(long.startsWith(shown) && shown.length < long.length).toBe(true);
    await expect.poll(() => server.abandoned).toBe(1);

    await terminal.send("are you there?", "Enter");
    await terminal.waitFor((screen) => screen.includes("Still here.") && screen.at(-1) === ">", "the next answer");
    // The model saw what had been shown of the stopped answer.
    // (The screen drops trailing spaces.)
    expect(server.requests[1]!.messages.map((message) => `${message.role}: ${message.text.trimEnd()}`)).toEqual([
      "user: tell me a long story",
      `assistant: ${shown}`,
      "user: are you there?",
    ]);
    await terminal.send("/exit", "Enter");
    await terminal.waitFor((screen) => screen.includes("[exit 0]"), "the exit");
  });

  it("Ctrl-C at the prompt clears what was typed; at an empty prompt it says how to leave, and a second one leaves", async () => {
    const { terminal, server } = await chatAt([]);
    await terminal.send("half a thought");
    await terminal.waitFor((screen) => screen.at(-1) === "> half a thought", "the typed text");
    await terminal.send("C-c");
    await terminal.waitFor((screen) => screen.at(-1) === ">", "a fresh prompt");
    await terminal.send("C-c");
    await terminal.waitFor(
      (screen) => screen.includes("(To exit, press Ctrl-C again or Ctrl-D, or type /exit)") && screen.at(-1) === ">",
      "the hint",
    );
    await terminal.send("C-c");
    const screen = await terminal.waitFor((lines) => lines.includes("[exit 0]"), "the exit");
    expect(screen).toEqual([
      HEADER,
      HINT,
      "> half a thought",
      ">",
      "(To exit, press Ctrl-C again or Ctrl-D, or type /exit)",
      ">",
      "[exit 0]",
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
