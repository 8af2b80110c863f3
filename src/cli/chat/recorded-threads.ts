import { existsSync } from "node:fs";
import type { RecordedThread } from "../../core/doctor/diagnose-library.js";
import { chatDatabasePath } from "./data-folder.js";
import { installCommand } from "./install-command.js";
import { missingPackage } from "./optional-package.js";

const SQLITE_PACKAGE = "@langchain/langgraph-checkpoint-sqlite";

/** The threads `skillset chat` saved, with the skills each loaded, or why none could be read. */
export type RecordedThreads = { path: string; threads: RecordedThread[] } | { path: string; unavailable: string };

/**
 * Reads every saved chat thread's checkpoints and collects the skills each had loaded at any
 * step (a skill loaded and unloaded again counts). No database yet, or no SQLite package, is an
 * `unavailable` reason, not an error: the threads are an optional part of a report.
 */
export async function readRecordedThreads(env: NodeJS.ProcessEnv = process.env): Promise<RecordedThreads> {
  const path = chatDatabasePath(env);
  if (!existsSync(path)) return { path, unavailable: `no chat threads are saved at ${path} yet` };
  let sqlite;
  try {
    sqlite = await import("@langchain/langgraph-checkpoint-sqlite");
  } catch (error) {
    const missing = missingPackage(error, SQLITE_PACKAGE);
    if (missing === undefined) throw error;
    return {
      path,
      unavailable: `reading the saved chat threads needs the package ${missing}: ${installCommand([missing])}`,
    };
  }
  const saver = sqlite.SqliteSaver.fromConnString(path);
  try {
    const loaded = new Map<string, Set<string>>();
    for await (const tuple of saver.list({ configurable: {} })) {
      const id = String(tuple.config.configurable?.thread_id ?? "");
      const names = loaded.get(id) ?? new Set<string>();
      loaded.set(id, names);
      const values = tuple.checkpoint.channel_values as { skillsLoaded?: unknown };
      if (Array.isArray(values.skillsLoaded))
        for (const name of values.skillsLoaded) if (typeof name === "string") names.add(name);
    }
    return {
      path,
      threads: [...loaded]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, names]) => ({ id, loaded: [...names].sort() })),
    };
  } catch (error) {
    return { path, unavailable: `the saved chat threads at ${path} could not be read: ${(error as Error).message}` };
  } finally {
    saver.db.close();
  }
}
