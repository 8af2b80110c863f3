import type { Command, CommanderError } from "commander";
import { shellCommand } from "./shell-command.js";

/**
 * The one line `skillset: …` says for a command line commander refused: its message without
 * `error: `, its `(Did you mean …?)` on the same line, and the help to read. An option of a
 * command given before the command's name gets the command line that works instead.
 */
export function usageMessage(error: CommanderError, program: Command, argv: string[]): string {
  const args = argv.slice(2);
  const commandIndex = commandIndexOf(program, args);
  const command =
    commandIndex === -1 ? undefined : program.commands.find((entry) => entry.name() === args[commandIndex]);
  if (command && error.code === "commander.unknownOption") {
    const misplaced = misplacedOption(error.message, command, args, commandIndex);
    if (misplaced) return misplaced;
  }
  // Commander puts a suggestion on a line of its own; stderr and --json get one line.
  const text = error.message
    .replace(/^error: /, "")
    .replace(/\s*\n\s*\(Did you mean (.*?)\)\s*$/s, "; did you mean $1")
    .replace(/\s*\n\s*/g, " ");
  return `${text} (see \`skillset ${command ? `${command.name()} ` : ""}--help\`)`;
}

// `skillset --json list`: --json is unknown to skillset itself, but list has it.
function misplacedOption(message: string, command: Command, args: string[], commandIndex: number): string | undefined {
  const flag = /unknown option '([^']+)'/.exec(message)?.[1];
  const before = args.slice(0, commandIndex);
  // Only when moving them helps: every option given before the name is one of the command's.
  const options = before.filter((arg) => arg.startsWith("-"));
  if (!flag || !options.includes(flag) || !options.every((arg) => knows(command, arg))) return undefined;
  const fixed = [command.name(), ...before, ...args.slice(commandIndex + 1)];
  return `${flag.replace(/=.*$/s, "")} is an option of the command, so it goes after it: ${shellCommand(fixed)}`;
}

// `--budget=10` and `-r` alike; short options are not combined by any command here.
function knows(command: Command, arg: string): boolean {
  const flag = arg.replace(/=.*$/s, "");
  return command.options.some((option) => option.long === flag || option.short === flag);
}

/** Where the subcommand is named on the command line (-1 when it is not). */
function commandIndexOf(program: Command, args: string[]): number {
  const names = new Set(program.commands.map((entry) => entry.name()));
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).findIndex((arg) => names.has(arg));
}
