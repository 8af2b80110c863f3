// Runs the BUILT `skillset` CLI (dist/cli/main.js, from `npm run build`) as a real process, as a
// user runs it: stdin piped (not a terminal) and closed, colour off, and the provider keys, base
// URLs and data folder set per test, never read from the machine running the tests.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = path.join(ROOT, "dist", "cli", "main.js");
export const EXAMPLES = path.join(ROOT, "examples", "skills");
const HIDE_PACKAGES = path.join(ROOT, "test", "helpers", "hide-packages.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Written to stdin, which is then closed. */
  input?: string;
  /** The working folder; the repository's root when not given. */
  cwd?: string;
  /** Added to (or, as `undefined`, removed from) the base environment. */
  env?: Record<string, string | undefined>;
  /** Packages to make unresolvable, as if not installed. */
  hidePackages?: string[];
}

/** The environment every run starts from: no colour, no keys or data folder from the outside. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const name of [
    "FORCE_COLOR",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "XDG_DATA_HOME",
  ])
    delete env[name];
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs `skillset <args>` to its end; a non-zero exit comes back as `code`, never as a rejection. */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
  const hide = options.hidePackages?.length ? ["--import", HIDE_PACKAGES] : [];
  const child = spawn(process.execPath, [...hide, CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: baseEnv({
      ...options.env,
      ...(options.hidePackages?.length ? { SKILLSET_TEST_HIDE_PACKAGES: options.hidePackages.join(",") } : {}),
    }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `skillset ...args` from the repository's root, with nothing else set. */
export function cli(...args: string[]): Promise<CliResult> {
  return runCli(args);
}
