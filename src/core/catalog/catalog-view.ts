import type { CatalogSnapshot } from "./catalog.js";
import { nextTurn } from "../event-loop-turn.js";
import { createContentHasher } from "../text/content-hash.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/** What the middleware derives from one catalog snapshot, computed once per snapshot. */
export interface CatalogView {
  skills: SkillMetadata[];
  /** Content hash of `skills` as JSON; equal across processes for equal catalogs. */
  version: string;
  /** The skills by name. */
  byName: ReadonlyMap<string, SkillMetadata>;
}

const views = new WeakMap<CatalogSnapshot, Promise<CatalogView>>();

/** The view of a snapshot, memoised: an unchanged catalog costs a WeakMap lookup. */
export function catalogView(snapshot: CatalogSnapshot): Promise<CatalogView> {
  let view = views.get(snapshot);
  if (!view) views.set(snapshot, (view = viewOf(snapshot)));
  return view;
}

// Skills hashed between two turns of the event loop: at 100,000 skills, the catalog's JSON is
// 42 million characters, which took 200 ms to write and hash in one go.
const SLICE = 2000;

// The hash of JSON.stringify(skills), written and hashed a slice of skills at a time, and the map
// of names, made in the same slices (in one go, it held the event loop for 20 ms at 100,000
// skills). A slice is written as one array, whose text between its brackets is its skills' part of
// the whole: written skill by skill, the JSON took twice as long.
async function viewOf(snapshot: CatalogSnapshot): Promise<CatalogView> {
  const skills = [...snapshot.skills];
  const byName = new Map<string, SkillMetadata>();
  const hasher = createContentHasher().update("[");
  for (let from = 0; from < skills.length; from += SLICE) {
    if (from > 0) {
      hasher.update(",");
      await nextTurn();
    }
    const slice = skills.slice(from, from + SLICE);
    hasher.update(JSON.stringify(slice).slice(1, -1));
    for (const skill of slice) byName.set(skill.name, skill);
  }
  return { skills, version: hasher.update("]").digest(), byName };
}
