import { createHash } from "node:crypto";
import type { TriggerQuery } from "./trigger-evals.js";

/** The queries a description is tuned on, and those held out to check that it generalizes. */
export interface TriggerSplit {
  train: TriggerQuery[];
  validation: TriggerQuery[];
}

/**
 * A fixed 60/40 split with the same share of should-trigger queries in each part: each kind is
 * shuffled by the SHA-256 of its query text (so the split does not follow the order the queries
 * were written in, and is the same on every run and machine, and whatever the file's order), and
 * 60% of it, rounded, goes to train; a kind of two or more keeps at least one in each part.
 * Both parts list their queries in the file's order.
 */
export function splitTriggerQueries(queries: readonly TriggerQuery[]): TriggerSplit {
  const train = new Set<TriggerQuery>();
  for (const kind of [true, false]) {
    const ofKind = queries
      .filter((entry) => entry.shouldTrigger === kind)
      .map((entry) => ({ entry, key: hash(entry.query) }));
    ofKind.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry } of ofKind.slice(0, trainCount(ofKind.length))) train.add(entry);
  }
  return {
    train: queries.filter((entry) => train.has(entry)),
    validation: queries.filter((entry) => !train.has(entry)),
  };
}

// 60% rounded (3n/5 is never halfway between two whole numbers), at least one and, from two on, one short of all.
function trainCount(count: number): number {
  if (count <= 1) return count;
  return Math.min(count - 1, Math.max(1, Math.round((3 * count) / 5)));
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
