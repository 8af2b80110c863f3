// Shared tools of the adversarial suite: temp folders, a real agent loop with the resource
// tools, process scans for leaked children, and a child-process runner for inputs that could
// take the whole process down (a V8 fatal error cannot be caught in-process).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { BaseMessage } from "langchain";
import { createSkillsMiddleware } from "../../src/langchain.js";
import type { ScriptExecutor } from "../../src/index.js";
import { runAgent, scriptedModel, type ScriptedCall } from "../langchain/helpers.js";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A random marker that cannot occur by chance in any output or process list. */
export function marker(prefix = "SKSEC"): string {
  return `${prefix}${randomBytes(8).toString("hex")}`;
}

/** Temp folders removed after each test: call `cleanupAll()` in `afterEach`. */
export class Sandbox {
  private readonly folders: string[] = [];

  /** A new empty temp folder (real path, so symlink comparisons are exact). */
  folder(prefix = "skillset-sec-"): string {
    const folder = mkdtempSync(join(tmpdir(), prefix));
    this.folders.push(folder);
    return folder;
  }

  cleanupAll(): void {
    for (const folder of this.folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  }
}

/** Writes `content` to `root/path`, creating folders. Returns the absolute path. */
export function put(root: string, path: string, content: string | Uint8Array, mode?: number): string {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content, mode === undefined ? undefined : { mode });
  return file;
}

/** Creates a symlink at `root/path` pointing to `target` (as given: relative or absolute). */
export function link(root: string, path: string, target: string): string {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  symlinkSync(target, file);
  return file;
}

/** A minimal SKILL.md. */
export function skillMd(
  name: string,
  description = `Use ${name} for tests.`,
  extra = "",
  body = `# ${name}\n\nFollow the ${name} steps.`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;
}

/** `mkfifo path`. */
export function mkfifo(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const result = spawnSync("mkfifo", [path]);
  if (result.status !== 0) throw new Error(`mkfifo failed: ${String(result.stderr)}`);
}

/**
 * If anything opens `fifo` for reading and blocks, this opens it for writing after `afterMs`
 * and closes it again, so a regression shows up as a slow test instead of a hung worker.
 * Returns a function that stops the rescuer.
 */
export function fifoRescuer(fifo: string, afterMs = 4000): () => void {
  // Its own process group, so stopping it also stops the `sleep` it runs.
  const child = spawn("timeout", ["20", "sh", "-c", `sleep ${afterMs / 1000}; : > "$1"`, "rescuer", fifo], {
    stdio: "ignore",
    detached: true,
  });
  return () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
}

/** Milliseconds a synchronous or asynchronous call takes, with its result. */
export async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/** Resolves to `fallback` if `promise` has not settled within `ms`. */
export function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// Agent loop

export interface ToolOutput {
  id: string;
  name: string;
  content: string;
  status: string | undefined;
}

/** Every ToolMessage of a run, in order. */
export function toolOutputs(messages: BaseMessage[]): ToolOutput[] {
  const outputs: ToolOutput[] = [];
  for (const message of messages) {
    if (message.type !== "tool") continue;
    const tool = message as BaseMessage & { tool_call_id: string; status?: string; name?: string };
    const content = typeof tool.content === "string" ? tool.content : JSON.stringify(tool.content);
    outputs.push({ id: tool.tool_call_id, name: tool.name ?? "", content, status: tool.status });
  }
  return outputs;
}

/** Everything the model could have seen in a run: every message's content, serialised. */
export function everythingSeen(messages: BaseMessage[]): string {
  return messages
    .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)))
    .join("\n");
}

/** Runs a real `createAgent` loop over local skills with `read_skill_resource` (and `run_skill_script` with an executor). */
export async function runSkillsAgent(options: {
  root: string;
  steps: Array<ScriptedCall[] | string>;
  executor?: ScriptExecutor;
  defaultAllowedCommands?: string[];
  tools?: Parameters<typeof runAgent>[0]["tools"];
}) {
  const middleware = createSkillsMiddleware({
    sources: [options.root],
    readResourceTool: true,
    ...(options.executor
      ? {
          runScripts: {
            executor: options.executor,
            ...(options.defaultAllowedCommands ? { defaultAllowedCommands: options.defaultAllowedCommands } : {}),
          },
        }
      : {}),
  });
  const model = scriptedModel(options.steps);
  const { result } = await runAgent({
    middleware: [middleware],
    model,
    ...(options.tools ? { tools: options.tools } : {}),
  });
  return { result, outputs: toolOutputs(result.messages), seen: everythingSeen(result.messages), model };
}

export const readCall = (skill: string, path: string, id: string): ScriptedCall => ({
  name: "read_skill_resource",
  args: { skill_name: skill, path },
  id,
});
export const runCall = (skill: string, command: string, id: string): ScriptedCall => ({
  name: "run_skill_script",
  args: { skill_name: skill, command },
  id,
});

// ---------------------------------------------------------------------------------------------
// Processes

/** Pids of live (non-zombie) processes whose command line contains `needle`. */
export function processesMatching(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(needle)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** SIGKILLs, by pid, the processes carrying `needle` (only ever our own random markers). */
export function killMatching(needle: string): number {
  const pids = processesMatching(needle);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return pids.length;
}

/** Waits until no process carries `needle`, up to `ms`; returns the survivors. */
export async function survivorsAfter(needle: string, ms: number): Promise<number[]> {
  const deadline = performance.now() + ms;
  let survivors = processesMatching(needle);
  while (survivors.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    survivors = processesMatching(needle);
  }
  return survivors;
}

// ---------------------------------------------------------------------------------------------
// Child processes running the library compiled from src/

let compiled: string | undefined;

/**
 * Transpiles `src/` (without tests) into a temp folder, once per test file, so a child `node`
 * can import the current sources. Returns the folder; `src/index.js` etc. are inside.
 */
export function compiledSources(): string {
  if (compiled) return compiled;
  const out = mkdtempSync(join(tmpdir(), "skillset-sec-build-"));
  const srcRoot = join(REPO, "src");
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts")) {
        const output = ts.transpileModule(readFileSync(path, "utf8"), {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
          fileName: path,
        });
        const target = join(out, "src", relative(srcRoot, path)).replace(/\.ts$/, ".js");
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, output.outputText);
      }
    }
  };
  walk(srcRoot);
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
  symlinkSync(join(REPO, "node_modules"), join(out, "node_modules"));
  compiled = out;
  return out;
}

/** Removes the compiled copy (call in `afterAll` of files that used it). */
export function removeCompiledSources(): void {
  if (compiled) rmSync(compiled, { recursive: true, force: true });
  compiled = undefined;
}

export interface ChildOutcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/**
 * Runs an ES module `script` in a fresh `node` (cwd: the compiled sources, so `./src/index.js`
 * imports the library), killed after `timeoutMs`.
 */
export function runChildScript(script: string, timeoutMs: number, args: string[] = []): Promise<ChildOutcome> {
  const root = compiledSources();
  const file = join(root, `child-${randomBytes(4).toString("hex")}.mjs`);
  writeFileSync(file, script);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      rmSync(file, { force: true });
      resolve({ status, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    });
  });
}

/** The C0/C1 control characters (and DEL) in `text`, except those in `allowed`. */
export function controlCharacters(text: string, allowed = "\t\n"): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0)!;
    return (code < 0x20 || (code >= 0x7f && code <= 0x9f)) && !allowed.includes(char);
  });
}

// ---------------------------------------------------------------------------------------------
// XML well-formedness (enough for the catalog format: elements, text, the five entities)

const XML_CHAR = /^[\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

/** Throws unless `xml` is a well-formed element tree with only XML 1.0 characters. */
export function assertWellFormedXml(xml: string): void {
  if (!XML_CHAR.test(xml)) {
    const bad = [...xml].find((char) => !XML_CHAR.test(char));
    throw new Error(`character U+${bad!.codePointAt(0)!.toString(16).padStart(4, "0")} is not allowed in XML`);
  }
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)\s*>|<|&(?:(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);)?/g;
  for (const match of xml.matchAll(token)) {
    if (match[0] === "<") throw new Error(`stray '<' at ${match.index}`);
    if (match[0].startsWith("&")) {
      if (match[0] === "&") throw new Error(`stray '&' at ${match.index}`);
      continue;
    }
    const [, closing, name] = match;
    if (closing) {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}> at ${match.index}`);
    } else {
      if (stack.length === 0) roots++;
      stack.push(name!);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("><")}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  if (xml.slice(0, xml.indexOf("<")).trim() !== "" || xml.slice(xml.lastIndexOf(">") + 1).trim() !== "")
    throw new Error("text outside the root element");
}
