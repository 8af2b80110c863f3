import { collectCorrections } from "./stored-corrections.js";
import { bodyKey, type SnapshotPlace, type StoredHead } from "./stored-snapshot.js";

// Which stored snapshots may go, decided by any writer after its head, from the writers' items
// (snapshot-writer.ts) alone. Kept: the one the head names, the one it replaced (a worker may have
// read the head just before and be reading that snapshot now; one that read even earlier finds its
// snapshot gone and reads the head again), and any a writer may still be about to name: its item
// is not done and younger than `abandonedAfterMs`. A writer killed between its snapshot and its
// head cannot be told from a slow one until then; after it, its snapshot is deleted. Times are all
// the store's, so the workers' clocks do not matter.

/** Deletes the snapshots of `place` that neither `head` nor an unfinished write needs, then their writers' items. */
export async function collectSnapshots(place: SnapshotPlace, head: StoredHead, ownWrite: string): Promise<void> {
  const writers = await place.writers.list(place.key);
  // The store's time now: that of this writer's item, just written.
  const now = writers.find((item) => item.key === ownWrite)?.updatedAt?.getTime();
  const abandoned = (time: Date | undefined) =>
    now !== undefined && time !== undefined && now - time.getTime() >= place.abandonedAfterMs;
  const kept = new Set([head.generation, head.previous]);
  const byGeneration = new Map<string, typeof writers>();
  for (const item of writers) {
    const { generation } = item.value;
    if (typeof generation === "string" && /^[0-9a-f]{64}$/.test(generation))
      byGeneration.set(generation, [...(byGeneration.get(generation) ?? []), item]);
    // A writer that died scanning named nothing.
    else if (abandoned(item.updatedAt)) await place.writers.delete(item.key);
  }
  for (const [generation, items] of byGeneration) {
    if (kept.has(generation) || !items.every((item) => item.value.done === true || abandoned(item.updatedAt))) continue;
    // The snapshot first: a collector that dies here leaves the items that lead the next one to it.
    await place.store.delete(bodyKey(place, generation));
    for (const item of items) await place.writers.delete(item.key);
  }
  if (head.since !== undefined) await collectCorrections(place, Date.parse(head.since), abandoned);
}
