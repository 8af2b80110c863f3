import {
  decodeLibrarySnapshot,
  decodeSnapshotHead,
  type LibrarySnapshot,
  type SnapshotHead,
} from "../../core/catalog/library-snapshot.js";
import type { RetryingStore } from "./snapshot-store.js";

// A snapshot in the store is two items: the snapshot itself under `<key>@<generation>`, written
// first and never changed, and the head under `<key>`, which names the current generation. A
// writer that dies between the two leaves the head on the previous, complete snapshot. Beside
// them: below `writers`, an item per write, which lets later writers find and delete snapshots no
// head names (snapshot-writer.ts); below `corrections`, single skills' corrections (stored-corrections.ts).

/** Where one source's snapshot is kept. */
export interface SnapshotPlace {
  /** The snapshot's namespace: heads and snapshots. */
  store: RetryingStore;
  /** One item per snapshot write: which generation it writes, and whether it is done. */
  writers: RetryingStore;
  /** Single skills' corrections, and the stamp that tells workers they changed. */
  corrections: RetryingStore;
  /** The head's key; the snapshots' keys are derived from it. */
  key: string;
  /** The id of the source the snapshot describes. */
  source: string;
  /** How long an unfinished write may be a writer still at work, rather than one that died. */
  abandonedAfterMs: number;
}

/** The head as stored: the snapshot's own, and what later writers and readers need. */
export interface StoredHead extends SnapshotHead {
  /** When, by the store's clock, the scan behind this snapshot began: older corrections are superseded. */
  since?: string;
  /** The generation of the head this one replaced, kept for workers that are reading it. */
  previous?: string;
}

/** What the head says: nothing yet, a usable head, or one this skillset cannot use (and why). */
export type HeadReading =
  | { kind: "missing" }
  | { kind: "head"; head: StoredHead }
  | { kind: "unusable"; problem: string; newer: boolean; stamp: string };

/** What reading the current snapshot found (and the head that named it). */
export type SnapshotReading =
  | { kind: "missing" }
  | { kind: "found"; snapshot: LibrarySnapshot; head: StoredHead }
  | { kind: "unusable"; problem: string; newer: boolean; stamp: string };

export const bodyKey = (place: SnapshotPlace, generation: string) => `${place.key}@${generation}`;

/** Reads the head: one small item, read on every scan to see whether the library changed. */
export async function readHead(place: SnapshotPlace): Promise<HeadReading> {
  const value = await place.store.get(place.key);
  if (value === undefined) return { kind: "missing" };
  const head = decodeSnapshotHead(value);
  if (head.ok) return { kind: "head", head: storedHead(head.value, value) };
  return {
    kind: "unusable",
    problem: `its head ${place.key}: ${head.problem}`,
    newer: head.newer,
    stamp: stampOf(value),
  };
}

/**
 * Reads the snapshot `head` names and verifies it. When writers replaced it in between (the
 * snapshot is gone), the head is read again, up to three times.
 */
export async function readSnapshot(place: SnapshotPlace, head: StoredHead): Promise<SnapshotReading> {
  let current = head;
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = bodyKey(place, current.generation);
    const value = await place.store.get(key);
    if (value !== undefined) {
      const snapshot = await decodeLibrarySnapshot(value, place.source, current.generation);
      if (snapshot.ok) return { kind: "found", snapshot: snapshot.value, head: current };
      return {
        kind: "unusable",
        problem: `${key}: ${snapshot.problem}`,
        newer: snapshot.newer,
        stamp: current.generation,
      };
    }
    const again = await readHead(place);
    if (again.kind !== "head") return again;
    if (again.head.generation === current.generation)
      return {
        kind: "unusable",
        problem: `${key}, which the head names, is missing`,
        newer: false,
        stamp: current.generation,
      };
    current = again.head;
  }
  return {
    kind: "unusable",
    problem: `the head of ${place.key} kept changing while it was read`,
    newer: false,
    stamp: "",
  };
}

// The head's own fields, and the writers' additions where they are well-formed.
function storedHead(head: SnapshotHead, value: Record<string, unknown>): StoredHead {
  const { format, generation, count, writtenAt } = head;
  const stored: StoredHead = { format, generation, count, writtenAt };
  if (typeof value.since === "string" && !Number.isNaN(Date.parse(value.since))) stored.since = value.since;
  if (typeof value.previous === "string" && /^[0-9a-f]{64}$/.test(value.previous)) stored.previous = value.previous;
  return stored;
}

// What identifies an unusable head, so a worker notices when it changes.
function stampOf(value: Record<string, unknown>): string {
  return typeof value.generation === "string" ? value.generation : JSON.stringify(value).slice(0, 200);
}
