import { readdirSync, readFileSync } from "node:fs";

// Killing a run's whole process tree, including processes that left its process group or the
// tree itself (setsid, double fork): they still carry the run's marker in their environment.

/** The environment variable that marks every process of one run, with the run's own value. */
export const RUN_MARKER = "SKILLSET_RUN_ID";

/**
 * Kills a run's processes: its process group, every descendant that moved to another group
 * and, on Linux, every process that carries the run's marker in its environment.
 */
export function killTree(pid: number | undefined, marker: string): void {
  if (pid === undefined) return;
  for (const target of [...descendantsOf(pid), ...markedProcesses(marker)]) signal(target);
  signal(-pid);
  signal(pid);
}

function markedProcesses(marker: string): number[] {
  const found: number[] = [];
  for (const entry of processIds()) {
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(marker)) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

function processIds(): string[] {
  try {
    return readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function descendantsOf(root: number): number[] {
  const entries = processIds();
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    try {
      // The parent pid is the 4th field, after the parenthesised command name.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(entry));
      children.set(parent, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
