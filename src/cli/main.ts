#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { printable } from "../core/text/safe-text.js";
import { CliError, type CliErrorCode } from "./cli-error.js";
import { defineCommands } from "./commands/define-commands.js";
import { processTerminal, type Terminal } from "./terminal.js";
import { usageMessage } from "./usage-message.js";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** Builds the `skillset` program; each action stores its exit code in `exit.code`. */
function buildProgram(terminal: Terminal, exit: { code: number }): Command {
  const program = new Command("skillset")
    .description("Find, validate and show Agent Skills.")
    .version(version)
    .exitOverride()
    // Help goes where commander sends it; its error messages are printed by main() instead.
    .configureOutput({
      writeOut: (text) => terminal.out(text),
      writeErr: (text) => terminal.err(text),
      outputError: () => {},
    });
  const run = async (action: () => Promise<number>) => {
    exit.code = await action();
  };
  defineCommands(program, { terminal, version, run });
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
      failure = { code: "usage", message: usageMessage(error, program, argv), exitCode: 2 };
    } else if (error instanceof CliError) {
      failure = { code: error.code, message: error.message, exitCode: error.exitCode };
    } else {
      terminal.err(`skillset: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      failure = { code: "internal", message: error instanceof Error ? error.message : String(error), exitCode: 1 };
    }
  }
  // Messages name skills and paths from skill folders: their control characters are shown escaped.
  if (failure.code !== "internal") terminal.err(`skillset: ${failure.message.split("\n").map(printable).join("\n")}`);
  // With --json a failure is JSON on stdout too, one shape for every command: scripts read
  // stdout and the exit code; people read stderr.
  if (jsonRequested(argv))
    terminal.out(JSON.stringify({ error: { code: failure.code, message: failure.message } }, null, 2));
  return failure.exitCode;
}

/** Whether `--json` is among the options (before a `--` that ends them). */
function jsonRequested(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

process.exitCode = await main();
