// Builds the npm tarball the way a release or a git install would, in a temporary copy of the
// package (so the shared dist/ is never cleaned under other tests), and installs it into a
// temporary consumer project.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The files a package build reads, copied from the working tree. */
const PACKAGE_INPUTS = ["package.json", "README.md", "LICENSE", "tsconfig.json", "tsconfig.build.json", "src"];

/** The optional peer dependencies a LangChain user installs next to skillset. */
export const PEERS = ["langchain", "@langchain/core", "@langchain/langgraph"];

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment for child processes: without the `npm_*` variables `npm test` sets (they
 * would carry this repository's package and config into the child's npm), and without colour.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: "1" };
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_") && key !== "FORCE_COLOR") env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a program (with `env` added); a non-zero exit comes back as `code`, not as an exception. */
export async function run(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, {
      cwd,
      env: childEnv(env),
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failure.code !== "number") throw error;
    return { code: failure.code, stdout: failure.stdout ?? "", stderr: failure.stderr ?? "" };
  }
}

/** Runs a program and throws, with its output, unless it exits 0. */
export async function runOrThrow(file: string, args: string[], cwd: string): Promise<CommandResult> {
  const result = await run(file, args, cwd);
  if (result.code !== 0) {
    throw new Error(`${file} ${args.join(" ")} (in ${cwd}) exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/**
 * Packs the package with `npm pack` in a copy of its inputs, so npm's own lifecycle (`prepare`:
 * a clean build) produces the tarball, as it does for a release. Returns the tarball's path.
 */
export async function packPackage(workDir: string): Promise<string> {
  const stage = path.join(workDir, "package");
  mkdirSync(stage);
  for (const input of PACKAGE_INPUTS) cpSync(path.join(ROOT, input), path.join(stage, input), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(stage, "node_modules"), "dir");
  await runOrThrow("npm", ["pack", "--pack-destination", workDir, "--no-audit", "--no-fund"], stage);
  const tarballs = readdirSync(workDir).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1)
    throw new Error(`npm pack left ${tarballs.length} tarballs in ${workDir}: ${tarballs.join(", ")}`);
  return path.join(workDir, tarballs[0]!);
}

/** The version of a package installed in the repository, so the consumer's install hits npm's cache. */
export function installedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/**
 * Creates an ESM consumer project in `<workDir>/consumer` and installs the tarball and the peer
 * dependencies into it, at the versions the repository uses (from npm's cache when it has them).
 */
export async function installIntoConsumer(workDir: string, tarball: string): Promise<string> {
  const consumer = path.join(workDir, "consumer");
  mkdirSync(consumer);
  writeFileSync(
    path.join(consumer, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  const peers = PEERS.map((name) => `${name}@${installedVersion(name)}`);
  await runOrThrow("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, ...peers], consumer);
  return consumer;
}

/** The entries of a `.tgz`, as `tar -tvzf` lists them: each path with its mode string. */
export async function listTarball(tarball: string): Promise<Map<string, string>> {
  const { stdout } = await runOrThrow("tar", ["-tvzf", tarball], path.dirname(tarball));
  const entries = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 6) entries.set(fields[fields.length - 1]!, fields[0]!);
  }
  return entries;
}

/** Every source file the build compiles (no tests, no fixtures), relative to src/, without `.ts`. */
export function compiledSources(): string[] {
  const files = readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" });
  return (
    files
      .map((file) => file.split(path.sep).join("/"))
      // A .d.ts in src declares an untyped dependency's module for the compiler and builds to nothing.
      .filter(
        (file) =>
          file.endsWith(".ts") &&
          !file.endsWith(".test.ts") &&
          !file.endsWith(".d.ts") &&
          !file.includes("__fixtures__/"),
      )
      .map((file) => file.slice(0, -".ts".length))
      .sort()
  );
}
