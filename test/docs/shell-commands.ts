// The shell commands of the documentation: `skillset <command> --flags` checked against the built
// CLI's own help, `npm run <script>` against package.json, and `<!-- snippet: run -->` blocks run.
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** The command lines of a shell block, continuation lines joined, prompts (`$ `) and comments removed. */
export function commandLines(code: string, { prompted }: { prompted: boolean }): string[] {
  const lines: string[] = [];
  const source = code.split("\n");
  for (let index = 0; index < source.length; index++) {
    let line = source[index]!;
    if (prompted) {
      if (!line.startsWith("$ ")) continue;
      line = line.slice(2);
    }
    // A line ending in `\` or a pipe goes on on the next one.
    while (/(\\|\|)\s*$/.test(line) && index + 1 < source.length)
      line = line.replace(/\\\s*$/, "") + " " + source[++index]!.trim();
    line = withoutComment(line).trim();
    if (line !== "") lines.push(line);
  }
  return lines;
}

/** The line up to an unquoted ` #`. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "#" && (index === 0 || /\s/.test(line[index - 1]!))) return line.slice(0, index);
  }
  return line;
}

/** The commands of a line, split at unquoted ` | `, `&&`, `||` and `;`, quoted text blanked out. */
export function segments(line: string): string[] {
  const unquoted = line.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""');
  return unquoted
    .split(/\s\|\s|&&|\|\||;/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** What the built CLI says about itself: its commands, and the flags of each (and of the program). */
export interface CliHelp {
  commands: Set<string>;
  flags: Map<string, Set<string>>;
}

const FLAG = /(?<![\w-])--?[a-zA-Z][\w-]*/g;

/** Reads `skillset --help` and each `skillset <command> --help` of the built CLI, at once. */
export async function readCliHelp(cli: string): Promise<CliHelp> {
  const help = async (...args: string[]) =>
    (
      await promisify(execFile)(process.execPath, [cli, ...args, "--help"], {
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      })
    ).stdout;
  const top = await help();
  const commands = new Set([...top.matchAll(/^ {2}([a-z]+) /gm)].map((match) => match[1]!));
  const named = [...commands].filter((command) => command !== "help");
  const texts = await Promise.all(named.map((command) => help(command)));
  const flags = new Map<string, Set<string>>([["", new Set(top.match(FLAG))]]);
  named.forEach((command, index) => flags.set(command, new Set(texts[index]!.match(FLAG))));
  return { commands, flags };
}

/** How `skillset` is spelled at the start of a command: as installed, through npx (never fetching), or in a clone. */
const SKILLSET = /^(?:skillset|npx --no-install skillset|node dist\/cli\/main\.js)(?=\s|$)/;

/**
 * The problems of one command line: an unknown `skillset` command or flag, an `npm run` script
 * package.json lacks, or `npx skillset`, which would fetch whatever the npm registry holds under
 * that name (skillset is not published there).
 */
export function commandProblems(line: string, help: CliHelp, scripts: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const segment of segments(line)) {
    if (/^npx\s+(?!--no-install\s)(?:\S+\s+)*?skillset\b/.test(segment))
      problems.push(`\`${segment}\`: npx would fetch \`skillset\` from the npm registry, where it is not published`);
    const npm = /^npm\s+(?:run(?:-script)?\s+(\S+)|(test|start))/.exec(segment);
    if (npm) {
      const script = npm[1] ?? npm[2]!;
      if (!(script in scripts)) problems.push(`\`${segment}\`: package.json has no script "${script}"`);
      continue;
    }
    const skillset = SKILLSET.exec(segment);
    if (!skillset) continue;
    const words = segment.slice(skillset[0].length).trim().split(/\s+/).filter(Boolean);
    const command = words.find((word) => !word.startsWith("-")) ?? "";
    if (command !== "" && !help.commands.has(command)) {
      problems.push(`\`${segment}\`: skillset has no command "${command}"`);
      continue;
    }
    const known = new Set([...help.flags.get("")!, ...(help.flags.get(command) ?? [])]);
    for (const flag of segment.slice(skillset[0].length).match(FLAG) ?? []) {
      if (!known.has(flag)) problems.push(`\`${segment}\`: \`skillset ${command}\` has no option ${flag}`);
    }
  }
  return problems;
}

/**
 * Runs each command line of a block with bash from the repository's root, `skillset` being the
 * built CLI, in a scratch HOME and TMPDIR; returns a problem for each line that does not exit 0.
 */
export function runCommandLines(root: string, cli: string, lines: string[]): string[] {
  const scratch = mkdtempSync(join(tmpdir(), "skillset-docs-run-"));
  try {
    const bin = join(scratch, "bin");
    mkdirSync(bin);
    mkdirSync(join(scratch, "home"));
    mkdirSync(join(scratch, "tmp"));
    writeFileSync(join(bin, "skillset"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
    chmodSync(join(bin, "skillset"), 0o755);
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      HOME: join(scratch, "home"),
      TMPDIR: join(scratch, "tmp"),
      NO_COLOR: "1",
    };
    const problems: string[] = [];
    for (const line of lines) {
      const run = spawnSync("bash", ["-c", `set -o pipefail; ${line}`], {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 60_000,
      });
      if (run.status !== 0)
        problems.push(
          `\`${line}\` exited with ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim().split("\n").slice(0, 3).join(" / ")}`,
        );
    }
    return problems;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** package.json's scripts. */
export const npmScripts = (root: string): Record<string, string> =>
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
