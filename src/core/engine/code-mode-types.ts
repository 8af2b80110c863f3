import type { CodeLimits } from "../../exec/code-sandbox/code-limits.js";
import type { CodeRunOutcome } from "../../exec/code-sandbox/code-run-outcome.js";
import type { CodeSandboxPool } from "../../exec/code-sandbox/code-sandbox-pool.js";

// Code mode's shapes (`run_code`), apart from the engine's other types so each file stays readable.

/**
 * Code mode: the model's `run_code` runs JavaScript in a WebAssembly sandbox (one per thread), where it
 * may import loaded skills' modules (`@/skills/<name>`) and call the agent's tools the app lets it.
 */
export interface CodeModeOptions {
  /**
   * The agent's tools the code may call, by the names the agent has them (`read_file`), or `"all"`.
   * The skill tools themselves are never callable from code. Tool calls made by code do not pass through
   * the agent framework's own tool hooks (human approval, for one), so list only tools that need none.
   * @default [] — code may import skills' modules but call no tool.
   */
  tools?: readonly string[] | "all";
  /** Overrides of the limits per run (64 MiB, 5 s, 256 tool calls, 20,000 characters back). */
  limits?: Partial<CodeLimits>;
  /**
   * Whether what a run leaves on `globalThis` is still there in the same thread's next run.
   * @default false — every run starts from a fresh global object.
   */
  keepValues?: boolean;
  /** A pool of sandboxes to run in, instead of one made from `limits` and `keepValues` (give those to the pool). */
  pool?: CodeSandboxPool;
}

/** A tool the code can call: the host's call of the agent's tool, resolving to its result. */
export type CodeTool = (args: unknown) => Promise<unknown>;

/** The agent's tools handed to a run, by their names as the agent has them (`read_file`). */
export type CodeTools = Readonly<Record<string, CodeTool>>;

/** What a host says about its tools besides handing them over (see {@link SkillEngine.runCode}). */
export interface CodeToolContext {
  /** Tools the `"restrict"` policy never blocks (as for direct calls). */
  alwaysAllowed?: ReadonlySet<string>;
  /** Whether a tool is one skills bring (`metadata.include_tools`): callable only while a loaded skill discloses it. */
  isSkillTool?: (name: string) => boolean;
}

/** The outcome of `run_code`: the text for the model, and what the sandbox reported (absent when nothing ran). */
export interface CodeReply {
  ok: boolean;
  text: string;
  outcome?: CodeRunOutcome;
}
