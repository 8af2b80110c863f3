import { encodeLibrarySnapshot, headOf, type LibrarySnapshot } from "../../core/catalog/library-snapshot.js";
import { collectSnapshots } from "./collect-snapshots.js";
import { bodyKey, readHead, type SnapshotPlace, type StoredHead } from "./stored-snapshot.js";

// A full write, through the store's own puts: no lock, no leader. Each write first puts an item
// of its own below `writers` (its time, by the store's clock, is when its scan began), names
// there the generation it is about to store, stores the snapshot, then the head, then marks
// itself done. A later writer that lists those items finds every snapshot ever stored, and knows
// which ones a writer may still be about to name: see collect-snapshots.ts.

/** A full write under way. */
export interface SnapshotWrite {
  /** Its item below `writers`. */
  key: string;
  /** When its scan began, by the store's clock (`undefined` for a store that keeps no times). */
  since: string | undefined;
}

/** What a write ended with. */
export interface WriteOutcome {
  /** Whether its head was written (not when the head already came from a newer scan). */
  written: boolean;
  /** The head now current. */
  head: StoredHead;
}

/** Starts a write before its scan: the time of its item is the scan's. */
export async function beginSnapshotWrite(place: SnapshotPlace): Promise<SnapshotWrite> {
  const key = `${place.key}#${globalThis.crypto.randomUUID()}`;
  await place.writers.put(key, { source: place.key });
  const item = await place.writers.item(key);
  return { key, since: item?.updatedAt?.toISOString() };
}

/** A write that stores nothing after all (the library had not changed). */
export async function dropSnapshotWrite(place: SnapshotPlace, write: SnapshotWrite): Promise<void> {
  // Left behind, it is deleted by a later writer once abandoned; it names no snapshot.
  await place.writers.delete(write.key).catch(() => {});
}

/**
 * Stores `snapshot`, and names it in the head unless the head already names the snapshot of a
 * scan that began later (which knows more); then deletes what no head needs any more.
 */
export async function finishSnapshotWrite(
  place: SnapshotPlace,
  write: SnapshotWrite,
  snapshot: LibrarySnapshot,
): Promise<WriteOutcome> {
  const { generation } = snapshot;
  await place.writers.put(write.key, { source: place.key, generation });
  await place.store.put(
    bodyKey(place, generation),
    encodeLibrarySnapshot(snapshot) as unknown as Record<string, unknown>,
  );
  const current = await readHead(place);
  const newer = current.kind === "head" && isLater(current.head.since, write.since) ? current.head : undefined;
  let head = newer;
  if (!head) {
    const replaced = current.kind === "head" ? current.head : undefined;
    const previous = replaced?.generation === generation ? replaced.previous : replaced?.generation;
    head = headOf(snapshot);
    if (write.since !== undefined) head.since = write.since;
    if (previous !== undefined) head.previous = previous;
    await place.store.put(place.key, head as unknown as Record<string, unknown>);
    // An older skillset's head (without its scan's time) had no writer's item: give its snapshot
    // one, done, so that it is deleted like any other once no head needs it.
    if (replaced && replaced.since === undefined && replaced.generation !== generation)
      await place.writers.put(`${place.key}#${replaced.generation}`, {
        source: place.key,
        generation: replaced.generation,
        done: true,
      });
  }
  await place.writers.put(write.key, { source: place.key, generation, done: true });
  // What is left behind costs only space, and the next writer deletes it.
  await collectSnapshots(place, head, write.key).catch(() => {});
  return { written: !newer, head };
}

function isLater(time: string | undefined, than: string | undefined): boolean {
  return time !== undefined && than !== undefined && Date.parse(time) > Date.parse(than);
}
