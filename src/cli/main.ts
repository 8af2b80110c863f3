#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { CliError, type CliErrorCode } from "./cli-error.js";
import { createCommand } from "./commands/create.js";
import { infoCommand } from "./commands/info.js";
import { listCommand } from "./commands/list.js";
import { promptCommand } from "./commands/prompt.js";
import { renderCommand } from "./commands/render.js";
import { searchCommand } from "./commands/search.js";
import { validateCommand } from "./commands/validate.js";
import { importOptional } from "./chat/optional-package.js";
import { processTerminal, type Terminal } from "./terminal.js";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

/** Builds the `skillset` program; each action stores its exit code in `exit.code`. */
function buildProgram(terminal: Terminal, exit: { code: number }): Command {
  const program = new Command("skillset")
    .description("Find, validate and show Agent Skills.")
    .version(version)
    .exitOverride()
    // Help goes where commander sends it; its error messages are printed by main() instead.
    .configureOutput({ writeOut: (text) => terminal.out(text), writeErr: (text) => terminal.err(text), outputError: () => {} });

  const run = (action: () => Promise<number>) => async () => {
    exit.code = await action();
  };
  const sourcesHelp = "skills folders, lowest precedence first (default: ~/.claude/skills, ~/.agents/skills, ./.claude/skills, ./.agents/skills)";

  program
    .command("validate")
    .description("Validate skills strictly, as the Agent Skills reference validator does")
    .argument("[paths...]", "skill folders (or SKILL.md files); with --recursive, folders to search", [])
    .option("-r, --recursive", "validate every folder below each path that holds a SKILL.md")
    .option("--json", "print a JSON report on stdout")
    .option("--allow-claude-code-fields", "accept Claude Code's extra frontmatter fields (argument-hint, model, ...)")
    .action((paths: string[], options) => run(() => validateCommand(paths, options, terminal))());

  program
    .command("list")
    .description("List skills with their status: ok, warning, shadowed or skipped")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--budget <tokens>", "the catalog budget to show each skill's place under (default 5000; none: no limit)")
    .option("--json", "print JSON on stdout")
    .action((sources: string[], options) => run(() => listCommand(sources, options, terminal))());

  program
    .command("info")
    .description("Show one skill: metadata, path, resources and diagnostics")
    .argument("<name>", "the skill's name")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--json", "print JSON on stdout")
    .action((name: string, sources: string[], options) => run(() => infoCommand(name, sources, options, terminal))());

  program
    .command("create")
    .description("Create a new skill folder that passes validation")
    .argument("<name>", "the skill's name: lowercase letters, digits and hyphens")
    .option("--dir <dir>", "folder to create the skill in", ".")
    .option("--description <text>", "what the skill does and when to use it")
    .option("--resources <list>", "resource folders to add: scripts,references,assets")
    .action((name: string, options) => run(() => createCommand(name, options, terminal))());

  program
    .command("prompt")
    .description("Print the skills catalog exactly as the model sees it")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--format <format>", "markdown or xml (default: markdown)")
    .option("--protocol <protocol>", "tools (the middleware's prompt, default) or text (the whole system prompt of the <use_skill> text protocol, createSkillRunner)")
    .option("--no-scripts", "with --protocol text: the prompt of a runner without an executor")
    .option("--tokens", "count tokens (o200k_base) and print the counts on stderr")
    .option("--budget <tokens>", "the catalog's token budget, as the middleware's catalogBudget (default 5000; none: no limit; XML: only when given, except with --protocol text)")
    .action((sources: string[], options) => run(() => promptCommand(sources, options, terminal))());

  program
    .command("search")
    .description("Find the skills search_skills would offer the model for a request, best first")
    .argument("<query>", "what the skill is for, in a few words")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--limit <n>", "how many skills to show, 1 to 25 (default 10)")
    .option("--json", 'print {"results":[{"name","description","path","score"}]} on stdout')
    .action((query: string, sources: string[], options) => run(() => searchCommand(query, sources, options, terminal))());

  program
    .command("render")
    .description("Print exactly what the model receives when a user invokes a skill with /name args")
    .argument("<name>", "the skill's name")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--args <text>", "the arguments, as a user types them after /name")
    .option("--dynamic", "run the skill's !`command` blocks with the local executor (script rules apply)")
    .action((name: string, sources: string[], options) => run(() => renderCommand(name, sources, options, terminal))());

  program
    .command("mcp")
    .description("Serve the skills over MCP: stdio, or Streamable HTTP with --http")
    .argument("[sources...]", sourcesHelp, [])
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--http <port>", "serve over Streamable HTTP at http://127.0.0.1:<port>/mcp (0: a free port) instead of stdio")
    .option("--host <host>", "the address --http binds (default 127.0.0.1; anything else exposes the skills to the network)")
    .option("--allow-scripts", "offer run_skill_script, running skills' scripts on this machine under their allow-lists")
    .option("--max-loaded <n>", "skills one session may have loaded at once (default 10)")
    // Loaded only for this command, so the others start without the MCP SDK.
    .action((sources: string[], options) => run(async () => (await import("./commands/mcp.js")).mcpCommand(sources, options, terminal, version))());

  const modelOptions = (command: Command) =>
    command
      .requiredOption("--model <provider:model>", "the model, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5 (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY)")
      .option("--base-url <url>", "another server with the provider's API, e.g. http://localhost:11434/v1 for Ollama with openai:<model>")
      .option("--timeout <seconds>", "how long one model request may take (default 120)")
      .option("--max-retries <n>", "retries of a failed model request (default 2)")
      .option("-r, --recursive", "find skills in nested folders too")
      .option("--allow-scripts", "run skills' scripts and dynamic context on this machine, under their allow-lists")
      .option("--files", "let the model read (not change) the files of the working folder");

  // chat and eval load LangChain and the provider packages, which the other commands do not need;
  // without them, one line names the package to install.
  modelOptions(
    program
      .command("chat")
      .description("Talk with a model that has the skills: /skills, /<skill> args, /loaded, /unload, /exit")
      .argument("[sources...]", sourcesHelp, [])
      .option("--thread <id>", "continue a saved conversation (threads are kept under the user's data folder)"),
  ).action((sources: string[], options) => run(async () => (await importOptional(() => import("./commands/chat.js"), "skillset chat", "langchain")).chatCommand(sources, options, terminal))());

  modelOptions(
    program
      .command("eval")
      .description("Measure which skills a model loads for the requests they are meant for")
      .argument("<cases>", "the cases file (YAML or JSON); with --generate, the file to write (- for stdout)")
      .argument("[sources...]", sourcesHelp, [])
      .option("--repeat <n>", "run every case n times, for variance (default 1)")
      .option("--json", "print a JSON report on stdout")
      .option("--min-pass <rate>", "exit 1 when fewer runs pass, e.g. 0.9 or 90%")
      .option("--max-steps <n>", "most model calls per turn of a case (default 8)")
      .option("--concurrency <n>", "runs at once (default 4)")
      .option("--generate", "draft cases from the skills' descriptions with the model, for you to review"),
  ).action((cases: string, sources: string[], options) => run(async () => (await importOptional(() => import("./commands/eval.js"), "skillset eval", "langchain")).evalCommand(cases, sources, options, terminal))());

  return program;
}

/** Why a run failed, as `--json` prints it and with the exit code it gets. */
interface Failure {
  code: CliErrorCode;
  message: string;
  exitCode: 1 | 2;
}

/** Runs the CLI; the only place that decides the process's exit code. */
export async function main(argv: string[] = process.argv): Promise<number> {
  const terminal = processTerminal();
  const exit = { code: 0 };
  const program = buildProgram(terminal, exit);
  let failure: Failure;
  try {
    await program.parseAsync(argv);
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; help shown because no command was given is a usage error.
      if (error.exitCode === 0) return 0;
      if (error.code === "commander.help") return 2;
      const command = commandOf(program, argv);
      const message = `${error.message.replace(/^error: /, "")} (see \`skillset ${command ? `${command} ` : ""}--help\`)`;
      failure = { code: "usage", message, exitCode: 2 };
    } else if (error instanceof CliError) {
      failure = { code: error.code, message: error.message, exitCode: error.exitCode };
    } else {
      terminal.err(`skillset: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      failure = { code: "internal", message: error instanceof Error ? error.message : String(error), exitCode: 1 };
    }
  }
  if (failure.code !== "internal") terminal.err(`skillset: ${failure.message}`);
  // With --json a failure is JSON on stdout too, one shape for every command: scripts read
  // stdout and the exit code; people read stderr.
  if (jsonRequested(argv)) terminal.out(JSON.stringify({ error: { code: failure.code, message: failure.message } }, null, 2));
  return failure.exitCode;
}

/** Whether `--json` is among the options (before a `--` that ends them). */
function jsonRequested(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

/** The subcommand named on the command line, if any, for the usage hint. */
function commandOf(program: Command, argv: string[]): string | undefined {
  const names = new Set(program.commands.map((command) => command.name()));
  return argv.slice(2).find((arg) => names.has(arg));
}

process.exitCode = await main();
