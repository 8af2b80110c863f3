import {
  decodeLibrarySnapshot,
  decodeSnapshotHead,
  encodeLibrarySnapshot,
  headOf,
  type LibrarySnapshot,
  type SnapshotHead,
} from "../../core/catalog/library-snapshot.js";
import type { RetryingStore } from "./snapshot-store.js";

// A snapshot in the store is two items: the snapshot itself under `<key>@<generation>`, written
// first and never changed, and the head under `<key>`, which names the current generation. A
// writer that dies between the two leaves the head on the previous, complete snapshot.

/** Where one source's snapshot is kept. */
export interface SnapshotPlace {
  store: RetryingStore;
  /** The head's key; the snapshots' keys are derived from it. */
  key: string;
  /** The id of the source the snapshot describes. */
  source: string;
}

/** What the head says: nothing yet, a usable head, or one this skillset cannot use (and why). */
export type HeadReading =
  | { kind: "missing" }
  | { kind: "head"; head: SnapshotHead }
  | { kind: "unusable"; problem: string; newer: boolean; stamp: string };

/** What reading the current snapshot found. */
export type SnapshotReading =
  | { kind: "missing" }
  | { kind: "found"; snapshot: LibrarySnapshot }
  | { kind: "unusable"; problem: string; newer: boolean; stamp: string };

const bodyKey = (place: SnapshotPlace, generation: string) => `${place.key}@${generation}`;

/** Reads the head: one small item, read on every scan to see whether the library changed. */
export async function readHead(place: SnapshotPlace): Promise<HeadReading> {
  const value = await place.store.get(place.key);
  if (value === undefined) return { kind: "missing" };
  const head = decodeSnapshotHead(value);
  if (head.ok) return { kind: "head", head: head.value };
  return {
    kind: "unusable",
    problem: `its head ${place.key}: ${head.problem}`,
    newer: head.newer,
    stamp: stampOf(value),
  };
}

/**
 * Reads the snapshot `head` names and verifies it. When a writer replaced it in between (the
 * snapshot is gone), the head is read again, up to three times.
 */
export async function readSnapshot(place: SnapshotPlace, head: SnapshotHead): Promise<SnapshotReading> {
  let current = head;
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = bodyKey(place, current.generation);
    const value = await place.store.get(key);
    if (value !== undefined) {
      const snapshot = await decodeLibrarySnapshot(value, place.source, current.generation);
      if (snapshot.ok) return { kind: "found", snapshot: snapshot.value };
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

/**
 * Stores `snapshot` as the current one: the snapshot first, then the head; then the snapshot it
 * replaced, `previous`, is deleted (a reader that still wanted it reads the head again).
 */
export async function writeSnapshot(place: SnapshotPlace, snapshot: LibrarySnapshot, previous?: string): Promise<void> {
  await place.store.put(
    bodyKey(place, snapshot.generation),
    encodeLibrarySnapshot(snapshot) as unknown as Record<string, unknown>,
  );
  await place.store.put(place.key, headOf(snapshot) as unknown as Record<string, unknown>);
  if (previous !== undefined && previous !== snapshot.generation) {
    // A snapshot left behind costs only space; failing to delete it is not the caller's problem.
    await place.store.delete(bodyKey(place, previous)).catch(() => {});
  }
}

// What identifies an unusable head, so a worker notices when it changes.
function stampOf(value: Record<string, unknown>): string {
  return typeof value.generation === "string" ? value.generation : JSON.stringify(value).slice(0, 200);
}
