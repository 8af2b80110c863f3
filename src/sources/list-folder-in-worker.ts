import type { Dirent } from "node:fs";
import { Worker } from "node:worker_threads";
import type { TimeSlice } from "../core/time-slice.js";

/** What a walk asks of a folder's entry: a {@link Dirent}, or one listed in a worker. */
export type FolderEntry = Pick<Dirent, "name" | "isDirectory" | "isSymbolicLink">;

const OTHER = 0;
const DIRECTORY = 1;
const LINK = 2;

// Runs in the worker: readdirSync (sorted on Unix, as in the main thread), sent as one string of
// the names joined by `/` (which no name holds) and a byte per entry for its type. One string is
// copied whole between threads; 100,000 strings would be made one by one on arrival.
const LIST_FOLDER = `
const { parentPort, workerData } = require("node:worker_threads");
const { readdirSync } = require("node:fs");
let entries;
try {
  entries = readdirSync(workerData, { withFileTypes: true });
} catch {
  entries = undefined;
}
if (entries === undefined) parentPort.postMessage(null);
else {
  const names = new Array(entries.length);
  const types = new Uint8Array(entries.length);
  for (let at = 0; at < entries.length; at++) {
    names[at] = entries[at].name;
    types[at] = entries[at].isDirectory() ? ${DIRECTORY} : entries[at].isSymbolicLink() ? ${LINK} : ${OTHER};
  }
  parentPort.postMessage({ names: names.join("/"), types }, [types.buffer]);
}
`;

/**
 * The entries of `directory`, listed in a worker thread so that the event loop never holds them
 * all at once: Node's own callback of `readdir` makes every name and entry in one turn (35 ms
 * for 100,000, and as much again for each collection of the young generation that falls in it).
 * Here they are made in slices. Undefined when the worker could not list it (no worker threads,
 * or the folder cannot be read): the caller lists it itself, and reports what is wrong.
 */
export async function listFolderInWorker(directory: string, slice: TimeSlice): Promise<FolderEntry[] | undefined> {
  const listed = await listInWorker(directory);
  if (listed === undefined) return undefined;
  const entries: FolderEntry[] = [];
  for (let at = 0, from = 0; at !== listed.types.length;) {
    // An index, not split: the names then become entries in slices.
    const end = listed.names.indexOf("/", from);
    const name = end === -1 ? listed.names.slice(from) : listed.names.slice(from, end);
    entries.push(new ListedEntry(name, listed.types[at]!));
    from = end + 1;
    if (++at % ENTRIES_PER_CHECK === 0 && slice.due()) await slice.pause();
  }
  return entries;
}

// Entries between two checks of the slice: a check reads the clock, an entry costs far less.
const ENTRIES_PER_CHECK = 256;

function listInWorker(directory: string): Promise<{ names: string; types: Uint8Array } | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      // No flags of the process (--cpu-prof, --inspect...): a listing needs none of them.
      worker = new Worker(LIST_FOLDER, { eval: true, workerData: directory, execArgv: [] });
    } catch {
      resolve(undefined);
      return;
    }
    // The first of these settles it: the message, or a worker that failed or ended without one.
    worker.once("message", (listed: { names: string; types: Uint8Array } | null) => resolve(listed ?? undefined));
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
}

class ListedEntry implements FolderEntry {
  readonly name: string;
  readonly #type: number;

  constructor(name: string, type: number) {
    this.name = name;
    this.#type = type;
  }

  isDirectory(): boolean {
    return this.#type === DIRECTORY;
  }

  isSymbolicLink(): boolean {
    return this.#type === LINK;
  }
}
