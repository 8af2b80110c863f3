import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { formatDiagnostic } from "../../core/diagnostic.js";
import { createLocalExecutor } from "../../exec/local-executor.js";
import { createSkillsMcpServer, type SkillsMcpServer } from "../../mcp/server/skills-mcp-server.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { CliError } from "../cli-error.js";
import { lockfileOption } from "../lock-option.js";
import { cliSource, scanLimitDiagnostics, sourceLocations, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { searchRankers } from "../search-rankers.js";
import { shellCommand } from "../shell-command.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset mcp`. */
export interface McpOptions extends SourceOptions {
  /** Serve over Streamable HTTP on this port (0: any free one) instead of stdio. */
  http?: string;
  host?: string;
  allowScripts?: boolean;
  /** `--allow-code`: offer `run_code`. */
  allowCode?: boolean;
  maxLoaded?: string;
  /** `--lock <file>`: refuse skills that differ from this skills-lock.json or are not in it. */
  lock?: string;
  /** `--embeddings <provider:model>`: `search_skills` also ranks by meaning. */
  embeddings?: string;
}

/**
 * `skillset mcp [sources...]`: serves the skills over MCP, on stdio (the client starts the
 * command) or, with `--http <port>`, over Streamable HTTP at `http://127.0.0.1:<port>/mcp`, until
 * the client closes stdin or the process gets SIGINT / SIGTERM. stdout carries only the protocol;
 * what the server has to say goes to stderr.
 */
export async function mcpCommand(
  paths: string[],
  options: McpOptions,
  terminal: Terminal,
  version: string,
): Promise<number> {
  const port = options.http === undefined ? undefined : integerOption("--http", options.http, 0, 65_535);
  const maxLoaded =
    options.maxLoaded === undefined ? undefined : integerOption("--max-loaded", options.maxLoaded, 1, 1000);
  if (options.host !== undefined && port === undefined) throw new CliError("usage", "--host needs --http <port>");
  const rankers = await searchRankers(options.embeddings, terminal, "warn");
  const server = createSkillsMcpServer({
    sources: sourceLocations(paths).map((path) => cliSource(path, options, true)),
    recursive: options.recursive ?? false,
    ...(maxLoaded !== undefined ? { maxLoadedSkills: maxLoaded } : {}),
    ...(rankers ? { searchRankers: rankers } : {}),
    ...(options.allowScripts ? { runScripts: { executor: createLocalExecutor() } } : {}),
    ...(options.allowCode ? { codeMode: true } : {}),
    ...lockfileOption(options.lock),
    serverInfo: { name: "skillset", version },
  });
  // The check of what the Skills extension serves stops early once the server closes.
  let closing = false;
  try {
    await reportSkills(server, paths, options, terminal);
    if (port === undefined) {
      const closed = untilClosed(process.stdin);
      await server.connect(new StdioServerTransport());
      terminal.err("skillset mcp: serving over stdio");
      reportUnserved(server, terminal, () => closing);
      await closed;
    } else {
      const listener = await server
        .listen({ port, ...(options.host !== undefined ? { host: options.host } : {}) })
        .catch(cannotListen);
      terminal.err(`skillset mcp: serving at ${listener.url}`);
      reportUnserved(server, terminal, () => closing);
      await untilClosed();
    }
    return 0;
  } finally {
    closing = true;
    await server.close();
  }
}

// What a client cannot tell: a scan cut short or reading nothing of a folder, skills skipped (the
// list command says why) and skills too big for the Skills extension.
async function reportSkills(
  server: SkillsMcpServer,
  paths: string[],
  options: McpOptions,
  terminal: Terminal,
): Promise<void> {
  const snapshot = await server.catalog.refresh();
  const skipped = new Set(
    snapshot.diagnostics.filter((diagnostic) => diagnostic.severity === "error").map((diagnostic) => diagnostic.file),
  ).size;
  terminal.err(
    `skillset mcp: ${plural(snapshot.skills.length, "skill")} from ${plural(server.catalog.sources.length, "skills folder")}`,
  );
  // A limit cut the scan, or a folder holds its skills deeper: what every other command warns of.
  for (const diagnostic of scanLimitDiagnostics(snapshot))
    terminal.err(`skillset mcp: ${formatDiagnostic(diagnostic)}`);
  if (skipped > 0)
    terminal.err(
      `skillset mcp: ${plural(skipped, "skill")} skipped; run \`${shellCommand(["list", ...(options.recursive ? ["--recursive"] : [])], paths)}\` to see why`,
    );
}

// Skills too big for the Skills extension, found while the server already serves: finding them
// lists every skill's files (30 s at 100,000 skills, all of it before the first answer when it
// came first). Requests meanwhile wait at most one of its 2 ms slices; the last line says when
// it ended.
function reportUnserved(server: SkillsMcpServer, terminal: Terminal, closing: () => boolean): void {
  const started = performance.now();
  server.unservedSkills().then(
    (unserved) => {
      for (const skill of unserved)
        terminal.err(
          `skillset mcp: not serving skill '${skill.name}' over the Skills extension: ${skill.reason} (${skill.path})`,
        );
      if (closing()) return;
      const served = unserved.length === 0 ? "every skill" : `all but ${plural(unserved.length, "skill")}`;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      terminal.err(`skillset mcp: the Skills extension serves ${served} (checked in ${seconds} s)`);
    },
    (error: unknown) =>
      terminal.err(
        `skillset mcp: could not check which skills the Skills extension serves: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
}

// The listener's one sentence, with the option that changes what failed.
function cannotListen(error: unknown): never {
  if (!SkillsetError.isInstance(error) || error.code !== "cannot-listen") throw error;
  const cause = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  const option = cause === "EADDRINUSE" || cause === "EACCES" ? "--http" : "--host";
  throw new CliError("cannot-listen", `${error.message}; choose another with ${option}`);
}

function untilClosed(input?: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    input?.once("end", done);
    input?.once("close", done);
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
}

function integerOption(name: string, value: string, min: number, max: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max))
    throw new CliError("usage", `${name} must be a whole number from ${min} to ${max}, not '${value}'`);
  return number;
}
