import { randomUUID } from "node:crypto";
import { createCatalog } from "../../core/catalog/catalog.js";
import { createChatAgent } from "../chat/chat-agent.js";
import { runChatLoop } from "../chat/chat-loop.js";
import { createChatModel, modelOptionsFrom, type ModelCliOptions } from "../chat/chat-model.js";
import { createChatOutput } from "../chat/chat-output.js";
import { createChatSession } from "../chat/chat-session.js";
import { threadValues } from "../chat/run-turn.js";
import { openThreadStore } from "../chat/thread-store.js";
import { CliError } from "../cli-error.js";
import { lockfileOption } from "../lock-option.js";
import { cliSource, sourceLocations, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { searchRankers } from "../search-rankers.js";
import { shellCommand } from "../shell-command.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset chat`. */
export interface ChatOptions extends SourceOptions, ModelCliOptions {
  thread?: string;
  allowScripts?: boolean;
  /** `--allow-code`: offer `run_code`. */
  allowCode?: boolean;
  files?: boolean;
  /** `--lock <file>`: refuse skills that differ from this skills-lock.json or are not in it. */
  lock?: string;
  /** `--embeddings <provider:model>`: `search_skills` also ranks by meaning. */
  embeddings?: string;
}

/**
 * `skillset chat [sources...] --model <provider:model>`: a conversation with a real model that
 * has the skills of `sources`. At a terminal it prompts, streams answers and shows skill activity
 * on stderr; otherwise it reads one message per line from stdin and prints each answer. Threads
 * are saved under the user's data folder; `--thread <id>` continues one.
 */
export async function chatCommand(paths: string[], options: ChatOptions, terminal: Terminal): Promise<number> {
  const modelOptions = modelOptionsFrom(options);
  const threadId = options.thread ?? randomUUID().slice(0, 8);
  if (!/^[\w.:-]{1,128}$/.test(threadId))
    throw new CliError("usage", `--thread must be 1 to 128 letters, digits, '.', ':', '_' or '-' (got '${threadId}')`);
  const locations = sourceLocations(paths);
  const lockfile = lockfileOption(options.lock);
  const model = await createChatModel(modelOptions);
  const rankers = await searchRankers(options.embeddings, terminal, "warn");
  const store = await openThreadStore(options.thread !== undefined);
  const sources = locations.map((path) => cliSource(path, options, true));
  const catalog = createCatalog(sources);
  try {
    const agent = createChatAgent({
      model: model.model,
      sources,
      allowScripts: options.allowScripts ?? false,
      ...(options.allowCode ? { allowCode: true } : {}),
      ...(rankers ? { searchRankers: rankers } : {}),
      checkpointer: store.checkpointer,
      ...(options.files ? { filesRoot: process.cwd() } : {}),
      ...lockfile,
    });
    const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    const output = createChatOutput(
      process.stdout,
      process.stderr,
      terminal.color,
      interactive && Boolean(process.stderr.isTTY),
    );
    const snapshot = await catalog.refresh();
    if (store.warning) terminal.err(terminal.color.yellow(store.warning));

    const previous = await threadValues(agent, threadId);
    const messages = previous.messages?.length ?? 0;
    const loaded = previous.skillsLoaded ?? [];
    const thread =
      messages > 0
        ? `thread ${threadId} resumed: ${plural(messages, "message")}, ${loaded.length > 0 ? `loaded: ${loaded.join(", ")}` : "no skills loaded"}`
        : `thread ${threadId}`;
    terminal.err(
      terminal.color.dim(
        `skillset chat · ${options.model} · ${plural(snapshot.skills.length, "skill")} · ${thread}${store.path ? ` (continue with --thread ${threadId})` : ""}`,
      ),
    );
    const skipped = new Set(
      snapshot.diagnostics.filter((diagnostic) => diagnostic.severity === "error").map((diagnostic) => diagnostic.file),
    ).size;
    if (skipped > 0) {
      terminal.err(
        terminal.color.yellow(
          `${plural(skipped, "skill")} could not be read; \`${shellCommand(["list", ...(options.recursive ? ["--recursive"] : [])], paths)}\` says why.`,
        ),
      );
    }
    if (interactive)
      terminal.err(terminal.color.dim("/help lists the commands; Ctrl-C stops an answer; /exit or Ctrl-D leaves."));

    const session = createChatSession({
      agent,
      threadId,
      catalog,
      model,
      timeoutMs: modelOptions.timeoutMs,
      output,
      ...(interactive ? { columns: process.stdout.columns } : {}),
    });
    const end = await runChatLoop(session, {
      input: process.stdin,
      output: process.stdout,
      interactive,
      notice: (text) => terminal.err(terminal.color.dim(text)),
    });
    if (end.interrupted && !interactive) return 130;
    return !interactive && end.failures > 0 ? 1 : 0;
  } finally {
    store.close();
    catalog.close();
  }
}
