import type { Terminal } from "../terminal.js";

/** What the commands' definitions get from `main()`. */
export interface CommandContext {
  terminal: Terminal;
  /** skillset's version, which `skillset mcp` reports to its clients. */
  version: string;
  /** Runs a command's action; `main()` keeps the exit code it returns. */
  run(action: () => Promise<number>): Promise<void>;
}
