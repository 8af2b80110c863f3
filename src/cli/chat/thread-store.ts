import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph";
import { CliError } from "../cli-error.js";
import { chatDatabasePath } from "./data-folder.js";
import { installCommand } from "./install-command.js";
import { importOptional, missingPackage } from "./optional-package.js";

const SQLITE_PACKAGE = "@langchain/langgraph-checkpoint-sqlite";

/** Where a chat's threads are kept. */
export interface ThreadStore {
  checkpointer: BaseCheckpointSaver;
  /** The SQLite file, when threads outlive the process. */
  path?: string;
  close(): void;
}

/**
 * Opens the SQLite checkpointer under the user's data folder (see `dataFolder`). Its packages
 * are optional: without them a chat with `--thread` (`required`) fails with one line naming
 * them, and any other chat keeps its thread in memory and returns `warning` saying so.
 */
export async function openThreadStore(
  required: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ThreadStore & { warning?: string }> {
  const load = () => import("@langchain/langgraph-checkpoint-sqlite");
  let sqlite: Awaited<ReturnType<typeof load>>;
  try {
    sqlite = required ? await importOptional(load, "--thread", SQLITE_PACKAGE) : await load();
  } catch (error) {
    const missing = missingPackage(error, SQLITE_PACKAGE);
    if (required || missing === undefined) throw error;
    return {
      checkpointer: new MemorySaver(),
      close: () => {},
      warning: `This conversation is kept in memory only: saving it needs the package ${missing}: ${installCommand([missing])}`,
    };
  }
  const path = chatDatabasePath(env);
  let saver: InstanceType<typeof sqlite.SqliteSaver>;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    saver = sqlite.SqliteSaver.fromConnString(path);
  } catch (error) {
    throw new CliError("cannot-create", `Cannot open the chat threads database ${path}: ${(error as Error).message}`);
  }
  return { checkpointer: saver, path, close: () => saver.db.close() };
}
