import {
  decodeSnapshotCorrection,
  encodeSnapshotCorrection,
  type SnapshotCorrection,
} from "../../core/catalog/snapshot-correction.js";
import { readHead, type HeadReading, type SnapshotPlace, type StoredHead } from "./stored-snapshot.js";

// Single skills' corrections, below the snapshot's namespace: one item per `SKILL.md` path, so
// two workers correcting different skills at the same moment write different items and neither
// is lost; two correcting the same skill write the same item, and the later wins (its load checks
// the digest again). Beside them a mark, a fresh random value put after each batch: workers read
// it with the head on every scan, and list the corrections again only when it changed.
//
// A correction is laid over the head's snapshot unless the store wrote it before that snapshot's
// scan began (`since`): the scan read the file later, so it knows better. Such superseded ones
// are deleted by a later writer once older than `abandonedAfterMs`, so that a writer whose scan
// began before them (and which would still need them) has long finished.

const correctionKey = (place: SnapshotPlace, path: string) => `${place.key}@${path}`;

/** The corrections' mark: changes whenever corrections were stored; `undefined` when none ever were. */
export async function readCorrectionsMark(place: SnapshotPlace): Promise<string | undefined> {
  const value = await place.corrections.get(place.key);
  if (value === undefined) return undefined;
  return typeof value.mark === "string" ? value.mark : JSON.stringify(value);
}

/** Stores `corrections`, each as its own item, then a new mark. */
export async function storeCorrections(
  place: SnapshotPlace,
  corrections: readonly SnapshotCorrection[],
): Promise<void> {
  for (const correction of corrections) {
    const stored = await encodeSnapshotCorrection(place.source, correction);
    await place.corrections.put(correctionKey(place, correction.path), stored as unknown as Record<string, unknown>);
  }
  await place.corrections.put(place.key, { mark: globalThis.crypto.randomUUID() });
}

/** The corrections that apply over the snapshot `head` names, and the problems of those that cannot be used. */
export async function loadCorrections(
  place: SnapshotPlace,
  head: StoredHead | undefined,
): Promise<{ corrections: SnapshotCorrection[]; problems: string[] }> {
  const since = head?.since === undefined ? undefined : Date.parse(head.since);
  const prefix = correctionKey(place, "");
  const corrections: SnapshotCorrection[] = [];
  const problems: string[] = [];
  for (const item of await place.corrections.list(place.key)) {
    if (since !== undefined && item.updatedAt !== undefined && item.updatedAt.getTime() <= since) continue;
    const path = item.key.startsWith(prefix) ? item.key.slice(prefix.length) : undefined;
    const decoded = path === undefined ? undefined : await decodeSnapshotCorrection(item.value, place.source, path);
    if (decoded?.ok) corrections.push(decoded.value);
    else problems.push(`${item.key}: ${decoded?.problem ?? "its key names no path"}`);
  }
  corrections.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { corrections, problems };
}

/** Deletes the corrections written before `since` (superseded by its snapshot) that are `abandoned` by now. */
export async function collectCorrections(
  place: SnapshotPlace,
  since: number,
  abandoned: (time: Date | undefined) => boolean,
): Promise<void> {
  for (const item of await place.corrections.list(place.key))
    if (item.updatedAt !== undefined && item.updatedAt.getTime() <= since && abandoned(item.updatedAt))
      await place.corrections.delete(item.key);
}

/** The head and the corrections' mark, read together (on every scan); the head's failure is the one reported. */
export async function readHeadAndMark(place: SnapshotPlace): Promise<[HeadReading, string | undefined]> {
  const mark = readCorrectionsMark(place);
  mark.catch(() => {});
  const head = await readHead(place);
  return [head, await mark];
}
